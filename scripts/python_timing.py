#!/usr/bin/python3
"""Timing fairness of the Python module: the same `pgs` job run through `ncpbench.run` and through
the command line must time the same (issue 25: within 5%). Rounds interleave the two (the order
alternates), each writes a fresh results file, and the medians over rounds of the summed solve
times (setup + iterations, as timed by the runner) are compared.

    PYTHONPATH=build/python /usr/bin/python3 scripts/python_timing.py --build build
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import h5py


def total_times(path):
    """Solve and setup times summed over the jobs, each job's minimum over its repeats (as the
    reports take it)."""
    with h5py.File(path, "r") as f:
        r = f["runs"]
        best = {}
        for p, solve, setup in zip(r["problem"][()], r["solve_time_s"][()], r["setup_time_s"][()]):
            s0, t0 = best.get(p, (float("inf"), float("inf")))
            best[p] = (min(s0, solve), min(t0, setup))
    return sum(v[0] for v in best.values()), sum(v[1] for v in best.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build folder (ncpbench and python/)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--solver", default="pgs")
    ap.add_argument("--params", default="contacts=200,bodies=400")
    ap.add_argument("-n", type=int, default=4, help="problems in the dataset")
    ap.add_argument("--repeat", type=int, default=3,
                    help="repeats per job; the minimum counts (a fresh command-line process pays "
                         "first-touch page faults in its first setup, the Python process not)")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.build, "python"))
    import ncpbench

    cli = os.path.join(a.build, "ncpbench")
    tmp = tempfile.mkdtemp(prefix="ncp-timing-")
    data = os.path.join(tmp, "d.h5")
    params = dict(kv.split("=") for kv in a.params.split(","))
    ncpbench.write_dataset(data, ncpbench.generate("random", a.n, seed=1, params=params))
    common = dict(iters=a.iters, threads=1, repeat=a.repeat)
    py, cl = [], []
    for k in range(a.rounds + 1):  # round 0 warms caches and is not counted
        def run_cli():
            out = os.path.join(tmp, f"cli{k}.h5")
            subprocess.run([cli, "run", data, "-s", a.solver, "--iters", str(a.iters),
                            "--threads", "1", "--repeat", str(a.repeat), "-q", "-o", out], check=True, capture_output=True)
            return total_times(out)

        def run_py():
            out = os.path.join(tmp, f"py{k}.h5")
            ncpbench.run([data], solvers=[a.solver], out=out, **common)
            return total_times(out)

        first, second = (run_cli, run_py) if k % 2 == 0 else (run_py, run_cli)
        r1, r2 = first(), second()
        c, p = (r1, r2) if first is run_cli else (r2, r1)
        if k > 0:
            cl.append(c)
            py.append(p)
    med = lambda xs, i: statistics.median(x[i] for x in xs)  # noqa: E731
    print(f"{a.solver}, {a.n} problems ({a.params}), {a.iters} iterations, 1 thread, "
          f"min of {a.repeat} repeats per job, median of {a.rounds} interleaved rounds")
    for i, what in ((0, "solve"), (1, "setup")):
        c, p = med(cl, i), med(py, i)
        print(f"  {what:5} time: cli {c * 1e3:8.3f} ms   python {p * 1e3:8.3f} ms   "
              f"python/cli {p / c:.3f} ({(p / c - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
