#!/usr/bin/env python3
"""Two panels from a trace CSV (solver,case,iteration,time_s,res004): the median residual over
time across cases (left) and the median time over iterations (right), one line per solver."""
import argparse
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    try:
        rows = list(csv.DictReader(open(a.csv)))
    except OSError as e:
        print(f"trace_panels: {a.csv}: {e.strerror}", file=sys.stderr)
        return 2
    if not rows or set(rows[0]) != {"solver", "case", "iteration", "time_s", "res004"}:
        print(f"trace_panels: {a.csv}: not a trace CSV (solver,case,iteration,time_s,res004)",
              file=sys.stderr)
        return 2
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        runs[r["solver"]][r["case"]].append((int(r["iteration"]), float(r["time_s"]), float(r["res004"])))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for solver, cases in runs.items():
        # Per case, in iteration order: iterations, times, residuals (numpy, so that thousands of
        # iterations × a hundred cases stay fast).
        runs_np = [np.array(sorted(c)).T for c in cases.values()]
        tmax = max(c[1].max() for c in runs_np)
        grid = np.logspace(-5, np.log10(max(tmax, 1e-5)), 80)
        # The residual of each case at time t: its last point at or before t (its first if none).
        at = [c[2][np.maximum(np.searchsorted(c[1], grid, side="right") - 1, 0)] for c in runs_np]
        left.loglog(grid * 1e3, np.median(np.array(at), axis=0), label=solver)
        # Median time at each iteration over the cases that have it.
        top = max(int(c[0].max()) for c in runs_np)
        times = np.full((len(runs_np), top + 1), np.nan)
        for k, c in enumerate(runs_np):
            times[k, c[0].astype(int)] = c[1]
        has = ~np.all(np.isnan(times), axis=0)
        it = np.nonzero(has)[0]
        right.plot(it, np.nanmedian(times[:, has], axis=0) * 1e3, label=solver)
        print(f"{solver}: median final res004 {np.median([c[2][-1] for c in runs_np]):.2e}")
    left.set_xlabel("time [ms]"), left.set_ylabel("median res004"), left.grid(True, which="both", alpha=0.3)
    right.set_xlabel("iteration"), right.set_ylabel("median time [ms]"), right.grid(True, alpha=0.3)
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
