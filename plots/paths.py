#!/usr/bin/env python3
"""Planar paths of a reproduction's CSV: every pair of columns x_<name>, y_<name> is one line
(solid), every pair ref_x_<name>, ref_y_<name> a reference drawn dashed in the same colour.

    /usr/bin/python3 plots/paths.py PATHS.csv -o OUT.png [--title TEXT] [--unit m]

Exits 2 with a one-line message on a missing file or a file without x_/y_ column pairs.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

plt = common.pyplot()
fail = common.failer("paths.py")


def points(rows, xname, yname):
    out = []
    for r in rows:
        try:
            x, y = float(r[xname]), float(r[yname])
        except (ValueError, KeyError):
            continue
        if math.isfinite(x) and math.isfinite(y):
            out.append((x, y))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("--unit", default="m")
    a = ap.parse_args()
    rows = common.read_csv(a.csv, fail)
    have = list(rows[0]) if rows else []
    names = [c[2:] for c in have if c.startswith("x_") and "y_" + c[2:] in have]
    if not names:
        fail(f"{a.csv}: no column pairs x_<name>, y_<name> in {have}")
    fig, ax = plt.subplots(figsize=(6, 6))
    for i, name in enumerate(names):
        colour = f"C{i % 10}"
        p = points(rows, "x_" + name, "y_" + name)
        ax.plot([q[0] for q in p], [q[1] for q in p], color=colour, linewidth=1.6, label=name)
        if "ref_x_" + name in have and "ref_y_" + name in have:
            r = points(rows, "ref_x_" + name, "ref_y_" + name)
            ax.plot([q[0] for q in r], [q[1] for q in r], color="k", linewidth=0.8,
                    linestyle="--")
    ax.plot([], [], color="k", linewidth=0.8, linestyle="--", label="reference")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(f"x [{a.unit}]")
    ax.set_ylabel(f"y [{a.unit}]")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    common.finish(fig, a.out, a.title, "paths.py")


if __name__ == "__main__":
    common.guarded(main, "paths.py")
