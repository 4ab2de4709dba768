#!/usr/bin/env python3
"""Two log-log panels from a size CSV (solver,particles,dofs,time_ms,residual), as in 004
Fig. 11: time per step over system DOF (left, with the fitted exponent of time ∝ DOF^k in the
legend, and printed) and the average residual over DOF (right), one line per solver (colours
from plots/palette.py; a label such as "subadmm (threads=1)" is drawn as subadmm)."""
import argparse
import os
import sys
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()

FIELDS = {"solver", "particles", "dofs", "time_ms", "residual"}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--time-label", default="time per step [ms]",
                    help="label of the time axis (what time_ms holds)")
    ap.add_argument("--title", default="per-step budget of the protocol (see its report)")
    a = ap.parse_args()
    rows = common.read_csv(a.csv, common.failer("size_panels"))
    if not rows or set(rows[0]) != FIELDS:
        print(f"size_panels: {a.csv}: not a size CSV ({','.join(sorted(FIELDS))})", file=sys.stderr)
        return 2
    series = defaultdict(list)
    fail = common.failer("size_panels")
    for i, r in enumerate(rows):
        d, t, res = float(r["dofs"]), float(r["time_ms"]), float(r["residual"])
        # Log axes and a log-log fit: a size of 0 or a non-finite one is no measurement.
        if not (np.isfinite(d) and d > 0):
            fail(f"{a.csv}: row {i + 1}: dofs = {r['dofs']}: must be a finite number > 0")
        if not (np.isfinite(t) and t >= 0):
            fail(f"{a.csv}: row {i + 1}: time_ms = {r['time_ms']}: must be a finite number >= 0")
        series[r["solver"]].append((d, t, res))
    look = palette.styles(series)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
    for solver, pts in series.items():
        colour, linestyle = look[solver]
        pts.sort()
        d, t, res = (np.array(v) for v in zip(*pts))
        label = solver
        if len(np.unique(d)) > 1 and np.all(t > 0):
            slope = np.polyfit(np.log10(d), np.log10(t), 1)[0]
            label = f"{solver} (time ∝ DOF^{slope:.2f})"
            print(f"{solver}: time ∝ DOF^{slope:.2f}")
        left.plot(d, t, marker="o", linestyle=linestyle, color=colour, label=label)
        right.plot(d, np.where(res > 0, res, np.nan), marker="o", linestyle=linestyle,
                   color=colour, label=solver)
    for ax, name in ((left, a.time_label), (right, "average residual (res004)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("system DOF")
        ax.set_ylabel(name)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    sizes = len({r["particles"] for r in rows})
    fig.suptitle(f"{os.path.splitext(os.path.basename(a.csv))[0]}: {sizes} size"
                 f"{'s' * (sizes != 1)}, {a.title}",
                 fontsize="medium")
    common.save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(common.guarded(main, "size_panels.py"))
