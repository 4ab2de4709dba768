#!/usr/bin/python3
"""Dolan-More performance profiles from the CSV that `ncpbench profile` writes.

One step line per solver: rho(tau), the share of problems solved within tau times the fastest
solver's time on that problem, against tau (log2 axis). Siconos Numerics solvers (peer = 1) are
drawn dashed. A second panel shows the shifted geometric mean of the time to tolerance
(unsolved problems count at the largest finite time of the tolerance, as a penalty). A CSV with
the columns metric and tol (several tolerances in one run) gets one row of panels per tolerance.

    /usr/bin/python3 plots/profiles.py PROFILE.csv -o OUT.png [--shift-ms 1]

Exits 2 with a one-line message on a missing file or a file without usable rows.
"""

import argparse
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import numpy as np  # noqa: E402


def fail(msg):
    print(f"profiles.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = {"dataset", "problem", "solver", "peer", "time_to_tol_s", "ratio"}
    if not rows or not need.issubset(rows[0].keys()):
        fail(f"{path}: expected the columns {sorted(need)} and at least one row")
    return rows


def draw(ax, bx, rows, title, shift_ms):
    """Draws one tolerance; returns False when nobody solved any of its problems."""
    ratios, times, peer = {}, {}, {}
    for r in rows:
        s = r["solver"]
        ratio = float(r["ratio"])
        if math.isnan(ratio):  # nobody solved this problem: not part of any profile
            continue
        ratios.setdefault(s, []).append(ratio)
        times.setdefault(s, []).append(float(r["time_to_tol_s"]))
        peer[s] = r["peer"] == "1"
    if not ratios:
        return False
    finite = [t for ts in times.values() for t in ts if math.isfinite(t)]
    penalty = max(finite) if finite else 1.0
    tau_max = max([x for rs in ratios.values() for x in rs if math.isfinite(x)] + [2.0]) * 1.5
    names = sorted(ratios)
    for s in names:
        r = np.sort(np.array(ratios[s]))
        taus = np.concatenate([[1.0], r[np.isfinite(r)], [tau_max]])
        frac = [np.mean(r <= t) for t in taus]
        ax.step(taus, frac, where="post", linestyle="--" if peer[s] else "-",
                label=s + (" (Siconos)" if peer[s] else ""))
    ax.set_xscale("log", base=2)
    ax.set_xlim(1.0, tau_max)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("tau (time / fastest time on the problem)")
    ax.set_ylabel("share of problems solved within tau")
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    shift = shift_ms * 1e-3
    sgm = []
    for s in names:
        t = np.array([x if math.isfinite(x) else penalty for x in times[s]])
        sgm.append((np.exp(np.mean(np.log(t + shift))) - shift) * 1e3)
    colors = ["tab:orange" if peer[s] else "tab:blue" for s in names]
    bx.barh(names, sgm, color=colors)
    bx.set_xscale("log")
    bx.set_xlabel(f"shifted geometric mean time (ms, shift {shift_ms:g} ms)")
    bx.tick_params(axis="y", labelsize=7)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--shift-ms", type=float, default=1.0)
    a = ap.parse_args()
    rows = load(a.csv)
    groups = {}  # (metric, tol) -> rows, in the order of the file
    for r in rows:
        key = (r.get("metric", ""), r.get("tol", ""))
        groups.setdefault(key, []).append(r)
    fig, axes = plt.subplots(len(groups), 2, figsize=(12, 4.5 * len(groups)),
                             gridspec_kw={"width_ratios": [2, 1]}, squeeze=False)
    drawn = 0
    for (ax, bx), ((metric, tol), g) in zip(axes, groups.items()):
        title = f"time to {metric} <= {tol}" if metric else ""
        if draw(ax, bx, g, title, a.shift_ms):
            drawn += 1
        else:
            ax.set_axis_off()
            bx.set_axis_off()
    if not drawn:
        fail(f"{a.csv}: no problem was solved by any solver")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"profiles: {a.out}")


if __name__ == "__main__":
    main()
