#!/usr/bin/env python3
"""Two log-log panels from a size CSV (solver,particles,dofs,time_ms,residual), as in 004
Fig. 11: time per step over system DOF (left, with the fitted exponent of time ∝ DOF^k in the
legend) and the average residual over DOF (right), one line per solver."""
import argparse
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

FIELDS = {"solver", "particles", "dofs", "time_ms", "residual"}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    try:
        rows = list(csv.DictReader(open(a.csv)))
    except OSError as e:
        print(f"size_panels: {a.csv}: {e.strerror}", file=sys.stderr)
        return 2
    if not rows or set(rows[0]) != FIELDS:
        print(f"size_panels: {a.csv}: not a size CSV ({','.join(sorted(FIELDS))})", file=sys.stderr)
        return 2
    series = defaultdict(list)
    for r in rows:
        series[r["solver"]].append((float(r["dofs"]), float(r["time_ms"]), float(r["residual"])))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for k, (solver, pts) in enumerate(series.items()):
        pts.sort()
        d, t, res = (np.array(v) for v in zip(*pts))
        label = solver
        if len(np.unique(d)) > 1 and np.all(t > 0):
            slope = np.polyfit(np.log10(d), np.log10(t), 1)[0]
            label = f"{solver} (time ∝ DOF^{slope:.2f})"
        left.plot(d, t, "o-", color=f"C{k}", label=label)
        right.plot(d, np.where(res > 0, res, np.nan), "o-", color=f"C{k}", label=solver)
    for ax, name in ((left, "time per step [ms]"), (right, "average residual (res004)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("system DOF")
        ax.set_ylabel(name)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    tmp = a.out + ".tmp.png"  # renamed when complete: a failed run leaves no partial image
    fig.savefig(tmp, dpi=120)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
