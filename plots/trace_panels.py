#!/usr/bin/env python3
"""Two panels from a trace CSV (solver,case,iteration,time_s,res004), one line per solver
(colours from plots/palette.py): the median residual over time across cases (left) and the time
over iterations (right). Prints each solver's median final residual.

Left: a case's residual at time t is its last point at or before t (its first before it starts,
its last after it stops); the median over cases is taken on the union of the solver's trace
times, and the line ends where the solver's longest case ends. The y-range comes from the
non-diverged cases (no non-finite value, never above 1e3 x their first value), at most 1e3 x
their largest first value; curves above it leave at the top edge with an "x". Right: the median
setup time plus, per iteration, the median time per iteration over the cases still running,
accumulated, so the time never runs backwards when fast cases stop.

    /usr/bin/python3 plots/trace_panels.py TRACES.csv -o OUT.png
"""
import argparse
import os
import sys
import warnings
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()

FIELDS = {"solver", "case", "iteration", "time_s", "res004"}


def diverged(values):
    finite = values[np.isfinite(values)]
    if len(finite) < len(values):
        return True
    return bool(len(finite)) and finite.max() > common.CLIP_FACTOR * finite[0]


def time_per_iteration_curve(cases):
    """(iterations, cumulative median time): setup, then the median over the running cases of
    the time per iteration on each step of the solver's iteration grid."""
    grid = common.thin(np.unique(np.concatenate([c[0] for c in cases])))
    per_case = np.full((len(cases), len(grid)), np.nan)
    for k, (it, t, _) in enumerate(cases):
        inside = (grid >= it[0]) & (grid <= it[-1])
        per_case[k, inside] = np.interp(grid[inside], it, t)
    steps = np.diff(per_case, axis=1)  # NaN once a case has stopped (or not yet started)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # steps where no case is running
        step = np.nan_to_num(np.nanmedian(steps, axis=0), nan=0.0)
        start = np.nan_to_num(np.nanmedian(per_case[:, 0]), nan=0.0)
    return grid, start + np.concatenate([[0.0], np.cumsum(np.maximum(step, 0.0))])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    rows = common.read_csv(a.csv, common.failer("trace_panels"))
    if not rows or set(rows[0]) != FIELDS:
        print(f"trace_panels: {a.csv}: not a trace CSV (solver,case,iteration,time_s,res004)",
              file=sys.stderr)
        return 2
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        point = (int(r["iteration"]), float(r["time_s"]), float(r["res004"]))
        runs[r["solver"]][r["case"]].append(point)
    # Per solver and case, in iteration order: iterations, times, residuals.
    cases = {s: [np.array(sorted(c), dtype=float).T for c in cs.values()] for s, cs in runs.items()}
    look = palette.styles(cases)
    # Zero and NaN residuals cannot be drawn on a log axis; +inf (a blow-up) stays, above the top.
    drawable = {}
    for s, cs in cases.items():
        keep = [(c[2] > 0) & ~np.isnan(c[2]) for c in cs]
        drawable[s] = [(c[0][k], c[1][k], c[2][k]) for c, k in zip(cs, keep) if k.any()]
    reference = [c[2] for cs in drawable.values() for c in cs if not diverged(c[2])]
    if not reference:
        reference = [c[2][np.isfinite(c[2])] for cs in drawable.values() for c in cs]
    bottom, top = common.y_limits(reference)

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
    for solver in cases:
        colour, linestyle = look[solver]
        style = dict(color=colour, linestyle=linestyle, label=solver)
        timed = [(t[t > 0], v[t > 0]) for _, t, v in drawable[solver] if np.any(t > 0)]
        if timed:
            grid, med = common.median_curve(timed, lambda p: common.thin(p, log=True))
            common.plot_clipped(left, grid * 1e3, med, top, **style)
        it, t = time_per_iteration_curve(cases[solver])
        right.plot(it, t * 1e3, **style)
        print(f"{solver}: median final res004 {np.median([c[2][-1] for c in cases[solver]]):.2e}")
    left.set(xscale="log", yscale="log", xlabel="time [ms]", ylabel="median res004",
             title="median res004 over time")
    left.set_ylim(bottom, top)
    right.set(xlabel="iteration", ylabel="median time [ms]",
              title="time over iterations (median per iteration, accumulated)")
    ncases = max(len(cs) for cs in cases.values())
    fig.suptitle(f"{os.path.splitext(os.path.basename(a.csv))[0]}: {ncases} case"
                 f"{'s' * (ncases != 1)}; runs stop at the tolerance or the budget of the study",
                 fontsize="medium")
    for ax in (left, right):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.text(0.01, 0.0, "A case holds its last residual after it stops; a line ends with the "
             "solver's longest case. x: the curve leaves the axis (diverged, or above "
             f"{common.CLIP_FACTOR:g} x the largest initial residual).", fontsize="small",
             va="top")
    common.save(fig, a.out, dpi=110, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(common.guarded(main, "trace_panels.py"))
