#!/usr/bin/env python3
"""The engines' peers against ours (`ncpbench reproduce engines`): one point per run, the time to
the run's own convergence (x, ms) against res004 there on the exact problem (y), one colour per
solver (plots/palette.py), one marker per dataset. Runs without a finite time or residual are left
out and counted on stdout.

    /usr/bin/python3 plots/engines.py engines.csv -o engines.png
"""
import argparse
import math
import os
import sys
from collections import defaultdict


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()

FIELDS = {"dataset", "solver", "own_ms", "own_res004"}
MARKERS = "osD^v<>phX*P8Hd"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    fail = common.failer("engines")
    rows = common.read_csv(a.csv, fail)  # an input: the figure never replaces it
    if not rows:
        fail(f"{a.csv}: no rows: nothing to draw")
    if not FIELDS <= set(rows[0]):
        fail(f"{a.csv}: columns {sorted(rows[0])}: need {sorted(FIELDS)}")
    points, datasets, skipped = defaultdict(list), [], 0
    for r in rows:
        x, y = float(r["own_ms"]), float(r["own_res004"])
        if not (math.isfinite(x) and math.isfinite(y) and x > 0 and y > 0):
            skipped += 1
            continue
        if r["dataset"] not in datasets:
            datasets.append(r["dataset"])
        points[r["solver"]].append((x, y, r["dataset"]))
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for solver, pts in points.items():
        for d in datasets:
            xs = [p[0] for p in pts if p[2] == d]
            ys = [p[1] for p in pts if p[2] == d]
            if xs:
                ax.scatter(xs, ys, color=palette.color(solver),
                           marker=MARKERS[datasets.index(d) % len(MARKERS)], s=22, alpha=0.8)
    solver_handles = [plt.Line2D([], [], color=palette.color(s), marker="o", ls="", label=s)
                      for s in points]
    dataset_handles = [plt.Line2D([], [], color="grey", marker=MARKERS[i % len(MARKERS)], ls="",
                                  label=d) for i, d in enumerate(datasets)]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time to own convergence [ms]")
    ax.set_ylabel("res004 on the exact problem there")
    ax.grid(True, which="major", alpha=0.3)
    first = ax.legend(handles=solver_handles, fontsize=7, loc="upper left",
                      bbox_to_anchor=(1.01, 1.0), title="solver")
    ax.add_artist(first)
    ax.legend(handles=dataset_handles, fontsize=7, loc="lower left", bbox_to_anchor=(1.01, 0.0),
              title="dataset")
    common.save(fig, a.out)
    print(f"{len(rows) - skipped} runs drawn, {skipped} without a finite time or residual")


if __name__ == "__main__":
    common.guarded(main, "engines.py")
