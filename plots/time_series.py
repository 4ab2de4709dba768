#!/usr/bin/env python3
"""Per-step series of a reproduction's CSV against time: the --y columns in the top panel, the
optional --y2 columns (log scale) in a second panel below, one line per column. Non-finite
values are left out of their line.

    /usr/bin/python3 plots/time_series.py SERIES.csv -o OUT.png --x time_s --y a,b [--y2 c]
        [--ylabel TEXT] [--y2label TEXT] [--title TEXT]

Exits 2 with a one-line message on a missing file or a column the file does not have.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

plt = common.pyplot()
fail = common.failer("time_series.py")


def column(rows, name):
    out = []
    for r in rows:
        try:
            out.append(float(r[name]))
        except ValueError:
            out.append(math.nan)
    return out


def draw(ax, x, rows, names, log):
    for name in names:
        pts = [(a, b) for a, b in zip(x, column(rows, name))
               if math.isfinite(a) and math.isfinite(b) and (b > 0 or not log)]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name, linewidth=1.2)
    if log:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--x", required=True)
    ap.add_argument("--y", required=True)
    ap.add_argument("--y2", default="")
    ap.add_argument("--ylabel", default="")
    ap.add_argument("--y2label", default="")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    rows = common.read_csv(a.csv, fail)
    ys = [c for c in a.y.split(",") if c]
    y2s = [c for c in a.y2.split(",") if c]
    have = set(rows[0]) if rows else set()
    for name in [a.x] + ys + y2s:
        if name not in have:
            fail(f"{a.csv}: column '{name}' not in {sorted(have)}")
    x = column(rows, a.x)
    panels = 2 if y2s else 1
    fig, axes = plt.subplots(panels, 1, figsize=(7, 3.2 * panels), sharex=True, squeeze=False)
    draw(axes[0][0], x, rows, ys, False)
    axes[0][0].set_ylabel(a.ylabel)
    if y2s:
        draw(axes[1][0], x, rows, y2s, True)
        axes[1][0].set_ylabel(a.y2label)
    axes[-1][0].set_xlabel(a.x)
    common.finish(fig, a.out, a.title, "time_series.py")


if __name__ == "__main__":
    common.guarded(main, "time_series.py")
