#!/usr/bin/python3
"""Dolan-More performance profiles from the CSV that `ncpbench profile` writes.

One step line per solver (colours from plots/palette.py, Siconos Numerics solvers dashed):
rho(tau), the share of the problems solved within tau times the fastest solver's time on that
problem, against tau (log2 axis); problems no solver solved count as unsolved, as in the
Markdown report. A second panel shows each solver's shifted geometric mean of the time to
tolerance, from the column time_for_mean_s (the time, or for an unsolved problem the penalty
harness/profile.cc uses), so it draws and prints exactly the numbers of the report, one line
per solver: `pgs: shifted geometric mean 1.23 ms (time to res004 <= 1e-06)`. A CSV with several
tolerances gets one row of panels per tolerance.

    /usr/bin/python3 plots/profiles.py PROFILE.csv -o OUT.png [--shift-ms 1]

A CSV of an older ncpbench (no time_for_mean_s) is drawn with unsolved problems at the largest
finite time of its tolerance, which is not the report's penalty; a note says so. Exits 2 with a
one-line message on a missing file or a file without usable rows.
"""

import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()
fail = common.failer("profiles.py")
# Below this many problems the report calls no solver the fastest (kSmallSample).
SMALL_SAMPLE = 5

NEED = {"dataset", "problem", "solver", "peer", "time_to_tol_s", "ratio"}


def load(path):
    rows = common.read_csv(path, fail)
    if not rows or not NEED.issubset(rows[0].keys()):
        fail(f"{path}: expected the columns {sorted(NEED)} and at least one row")
    return rows


def shifted_geometric_mean(values, shift):
    """As ShiftedGeometricMean in harness/report.cc, operation by operation (same rounding)."""
    if not values:
        return math.nan
    total = 0.0
    for v in values:
        total += math.log(v + shift)
    return math.exp(total / len(values)) - shift


def sig(x):
    """Sig() of harness/profile.cc: 3 significant digits, n/a when not finite."""
    return f"{x:.3g}" if math.isfinite(x) else "n/a"


def means(rows, shift):
    """{solver: shifted geometric mean in s}, from time_for_mean_s in file order (the order the
    report sums in), else from the old penalty."""
    times = {}
    if "time_for_mean_s" in rows[0]:
        for r in rows:
            times.setdefault(r["solver"], []).append(float(r["time_for_mean_s"]))
    else:
        finite = [t for t in (float(r["time_to_tol_s"]) for r in rows) if math.isfinite(t)]
        penalty = max(finite) if finite else 1.0
        for r in rows:
            t = float(r["time_to_tol_s"])
            times.setdefault(r["solver"], []).append(t if math.isfinite(t) else penalty)
    return {s: shifted_geometric_mean(ts, shift) for s, ts in times.items()}


def draw(ax, bx, rows, title, shift_ms, what):
    ratios, peer = {}, {}
    for r in rows:
        ratio = float(r["ratio"])
        # NaN: nobody solved the problem; it still counts, as unsolved (the report's rho).
        ratios.setdefault(r["solver"], []).append(math.inf if math.isnan(ratio) else ratio)
        peer[r["solver"]] = r["peer"] == "1"
    names = sorted(ratios)
    look = palette.styles(names)
    tau_max = max([x for rs in ratios.values() for x in rs if math.isfinite(x)] + [2.0]) * 1.5
    for s in names:
        r = np.sort(np.array(ratios[s]))
        taus = np.concatenate([[1.0], r[np.isfinite(r)], [tau_max]])
        frac = [np.mean(r <= t) for t in taus]
        ax.step(taus, frac, where="post", color=look[s][0], linestyle="--" if peer[s] else "-",
                label=s + (" (Siconos)" if peer[s] else ""))
    ax.set_xscale("log", base=2)
    ax.set_xlim(1.0, tau_max)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("tau (time / fastest time on the problem)")
    ax.set_ylabel("share of problems solved within tau")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    sgm = means(rows, shift_ms * 1e-3)
    for s in names:
        print(f"{s}: shifted geometric mean {sig(sgm[s] * 1e3)} ms{what}")
    values = [sgm[s] * 1e3 for s in names]
    # n/a (no time to count: every run failed at once and no budget is known) draws no bar.
    drawn = [v if math.isfinite(v) and v > 0 else 0.0 for v in values]
    bars = bx.barh(names, drawn, color=[look[s][0] for s in names], edgecolor="none")
    for bar, s in zip(bars, names):
        if peer[s]:
            bar.set_hatch("//")
    finite = [v for v in drawn if v > 0]
    for y, v in enumerate(values):
        bx.text(drawn[y] if drawn[y] > 0 else (min(finite) if finite else 0.0), y, " " + sig(v),
                va="center", fontsize=7)
    bx.invert_yaxis()  # same order as the legend, top down
    if finite:
        bx.set_xscale("log")
    else:
        bx.set_xticks([])
    bx.set_xlabel(f"shifted geometric mean time (ms, shift {shift_ms:g} ms)")
    bx.set_title("unsolved: max(time spent, time budget, slowest success)"
                 if "time_for_mean_s" in rows[0] else "unsolved: largest finite time (old CSV)",
                 fontsize=8)
    bx.tick_params(axis="y", labelsize=7)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--shift-ms", type=float, default=1.0,
                    help="shift of the geometric mean; the report uses 1 ms")
    a = ap.parse_args()
    if not (math.isfinite(a.shift_ms) and a.shift_ms > 0):
        fail(f"--shift-ms = {a.shift_ms}: must be a finite number of ms > 0")
    rows = load(a.csv)
    if "time_for_mean_s" not in rows[0]:
        print(f"profiles.py: note: {a.csv} has no time_for_mean_s column (older ncpbench): "
              "unsolved problems count at the largest finite time, not the report's penalty",
              file=sys.stderr)
    groups = {}  # (metric, tol) -> rows, in the order of the file
    for r in rows:
        key = (r.get("metric", ""), r.get("tol", ""))
        groups.setdefault(key, []).append(r)
    fig, axes = plt.subplots(len(groups), 2, figsize=(12, 4.5 * len(groups)),
                             gridspec_kw={"width_ratios": [2, 1]}, squeeze=False)
    for (ax, bx), ((metric, tol), g) in zip(axes, groups.items()):
        problems = len({(r["dataset"], r["problem"]) for r in g})
        datasets = sorted({r["dataset"] for r in g})
        shown = ", ".join(datasets) if len(datasets) <= 4 else f"{len(datasets)} datasets"
        what = f" (time to {metric} <= {tol})" if metric else ""
        title = (f"time to {metric} <= {tol}, " if metric else "") + \
            f"{problems} problem{'s' * (problems != 1)} ({shown})"
        if problems < SMALL_SAMPLE:  # as the report's verdicts (harness/verdict_guard.h)
            title += f": ranking not assessed (fewer than {SMALL_SAMPLE} problems)"
        draw(ax, bx, g, title, a.shift_ms, what)
    common.save(fig, a.out)
    print(f"profiles: {a.out}")


if __name__ == "__main__":
    common.guarded(main, "profiles.py")
