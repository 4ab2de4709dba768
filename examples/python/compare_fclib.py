#!/usr/bin/python3
"""Load an fclib file and compare three solvers on it under the same budget.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/compare_fclib.py \
        datasets/fclib/CubeH8.hdf5 --solvers pgs,apgd,admm-full --iters 200
"""
import argparse

import ncpbench


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fclib", help="an fclib file (global or local) or an ncpbench dataset")
    ap.add_argument("--solvers", default="pgs,apgd,admm-full")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--tol", type=float, default=0.0, help="stop at natmap_rel <= tol (0: none)")
    a = ap.parse_args()
    for p in ncpbench.load(a.fclib):
        print(f"{p.name}: {p.form} form, {p.num_dofs} dofs, {p.num_contacts} contacts, "
              f"mu in [{p.mu.min():.2g}, {p.mu.max():.2g}]")
        print(f"  {'solver':12} {'status':15} {'iters':>6} {'time ms':>9} {'natmap_rel':>11} "
              f"{'res004':>10}")
        for name in a.solvers.split(","):
            r = ncpbench.solve(p, name, iters=a.iters, tol=a.tol, tol_metric="natmap_rel")
            print(f"  {name:12} {r.status:15} {r.iterations:6d} {r.total_time * 1e3:9.2f} "
                  f"{r.metrics['natmap_rel']:11.3e} {r.metrics['res004']:10.3e}")


if __name__ == "__main__":
    main()
