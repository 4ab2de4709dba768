#!/usr/bin/python3
"""Plot convergence traces (residual against iterations and time) of a few solvers.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/plot_trace.py \
        datasets/fclib/CubeH8.hdf5 -o trace.png --metric natmap_rel
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402

import ncpbench  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", help="an fclib file or an ncpbench dataset (its first problem)")
    ap.add_argument("-o", "--out", default="trace.png")
    ap.add_argument("--solvers", default="pgs,pj,apgd")
    ap.add_argument("--metric", default="res004", choices=ncpbench.metrics())
    ap.add_argument("--iters", type=int, default=300)
    a = ap.parse_args()
    p = ncpbench.load(a.dataset)[0]
    fig, (ax_it, ax_t) = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for name in a.solvers.split(","):
        tr = ncpbench.solve(p, name, iters=a.iters, trace=max(1, a.iters // 100)).trace
        ax_it.semilogy(tr["iteration"], tr[a.metric], label=name)
        ax_t.semilogy(tr["time_s"] * 1e3, tr[a.metric], label=name)
    ax_it.set(xlabel="iteration", ylabel=a.metric, title=p.name)
    ax_t.set(xlabel="time [ms] (setup + iterations; evaluation not timed)")
    ax_it.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
