#!/usr/bin/python3
"""Roofline figure of an ncpbench results file (docs/roofline.md).

One point per dataset and solver: the arithmetic intensity of its iterations (work_flops /
work_bytes, summed over its runs) against the flop rate achieved (work_flops / solve_time_s),
on log-log axes under the machine's roofs min(peak flops, intensity × peak bandwidth) as the
file recorded them (`ncpbench peaks`): solid for one thread, dashed for every thread. Each point
is drawn against the roof of the threads its runs used; one line per point is printed with the
fraction of that bound (time at the bound / measured time, as the report's table computes it).

    /usr/bin/python3 plots/roofline.py RESULTS.h5 -o OUT.png

Runs that did not iterate or whose solver does not count its work are left out. Exits 2 with a
one-line message on a missing file, a file that is not a results file, a file without work
columns or measured peaks, or no counted run.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()
fail = common.failer("roofline.py")
h5py = common.require("h5py", "python3-h5py", fail)

PEAKS = ("peak_bandwidth_gbs_1thread", "peak_bandwidth_gbs", "peak_gflops_1thread", "peak_gflops")


def load(path):
    with common.open_results(path, h5py, fail, ("solve_time_s",)) as f:
        runs = f["runs"]
        if "work_bytes" not in runs:
            fail(f"{path}: no work_bytes column (written before the work counts)")
        cols = {k: common.strings(runs[k][()]) for k in ("dataset", "solver")}
        # Variants of one solver (other settings, budgets) are points of their own, labelled as
        # the report labels them: merged, one number stood for two the report shows apart.
        for k in ("settings", "budget", "warm_start"):
            cols[k] = common.strings(runs[k][()]) if k in runs else [""] * len(cols["solver"])
        for k in ("work_bytes", "work_flops", "solve_time_s"):
            cols[k] = np.asarray(runs[k][()], dtype=float)
        for k in ("iterations", "threads_used"):
            cols[k] = np.asarray(runs[k][()], dtype=int)
        attrs = common.attributes(f)
    peaks = {}
    for key in PEAKS:
        try:
            peaks[key] = float(attrs[key])
        except (KeyError, ValueError):
            fail(f"{path}: attribute {key} missing or not a number (run `ncpbench peaks` "
                 "before the runs)")
        if not peaks[key] > 0:
            fail(f"{path}: attribute {key} = {attrs[key]}: must be positive")
    return cols, peaks, attrs


def groups(cols, peaks):
    """{(dataset, variant, threads): [bytes, flops, time, time at the bound]} over counted runs;
    a variant is (solver, settings, budget, warm start). A run that counts no flops (a plug-in's
    bytes-only count) has no intensity to place on the log axis: left out, as uncounted ones."""
    out = {}
    for i in range(len(cols["solver"])):
        b, f, t = cols["work_bytes"][i], cols["work_flops"][i], cols["solve_time_s"][i]
        counted = np.isfinite(b) and np.isfinite(f) and b > 0 and f > 0 and t > 0
        if cols["iterations"][i] <= 0 or not counted:
            continue
        variant = tuple(cols[k][i] for k in ("solver", "settings", "budget", "warm_start"))
        key = (cols["dataset"][i], variant, max(1, cols["threads_used"][i]))
        g = out.setdefault(key, [0.0, 0.0, 0.0, 0.0])
        g[0] += b
        g[1] += f
        g[2] += t
        g[3] += bound_time(b, f, peaks_for(peaks, key[2]))
    return out


def peaks_for(peaks, threads):
    """(bandwidth GB/s, flop rate GFLOP/s) of one thread, or of every thread."""
    one = threads <= 1
    return (peaks["peak_bandwidth_gbs_1thread" if one else "peak_bandwidth_gbs"],
            peaks["peak_gflops_1thread" if one else "peak_gflops"])


def bound_time(b, f, peaks):
    bw, fl = peaks
    return max(b / (bw * 1e9), f / (fl * 1e9))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results file of `ncpbench run` (or sweep, profile)")
    ap.add_argument("-o", "--out", required=True, help="output image (.png)")
    args = ap.parse_args()

    cols, peaks, attrs = load(args.results)
    data = groups(cols, peaks)
    if not data:
        fail(f"{args.results}: no run with counted work (no solver of it counts, or none iterated)")
    names = common.variant_labels(sorted({v for _, v, _ in data}))
    look = palette.styles(sorted(names.values()))

    fig, ax = plt.subplots(figsize=(7, 5))
    intensities = [f / b for b, f, _, _ in data.values()]
    lo, hi = min(intensities) / 4, max(max(intensities) * 4, 4.0)
    grid = np.logspace(np.log10(lo), np.log10(hi), 200)
    for threads, style in ((1, "-"), (2, "--")):
        bw, fl = peaks_for(peaks, threads)
        label = "1 thread" if threads == 1 else f"{attrs.get('peak_threads', 'all')} threads"
        ax.plot(grid, np.minimum(fl, grid * bw), color="0.3", linestyle=style,
                label=f"roof, {label}: {bw:.3g} GB/s, {fl:.3g} GFLOP/s")
    markers = "os^vD<>ph*"
    datasets = sorted({d for d, _, _ in data})
    for (dataset, variant, threads), (b, f, t, tb) in sorted(data.items()):
        solver = names[variant]
        colour, _ = look[solver]
        marker = markers[datasets.index(dataset) % len(markers)]
        ax.scatter(f / b, f / t * 1e-9, color=colour, marker=marker, s=40,
                   facecolors=colour if threads <= 1 else "none")
        print(f"{solver} on {dataset} ({threads} thread{'s' if threads > 1 else ''}): "
              f"{f / b:.3g} flop/B, {b / t * 1e-9:.3g} GB/s, {f / t * 1e-9:.3g} GFLOP/s, "
              f"{100 * tb / t:.0f}% of bound")
    for solver in sorted(names.values()):
        ax.scatter([], [], color=look[solver][0], label=solver)
    for k, dataset in enumerate(datasets):
        ax.scatter([], [], color="0.5", marker=markers[k % len(markers)], label=dataset)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity [flop/byte]")
    ax.set_ylabel("achieved [GFLOP/s]")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(f"{attrs.get('cpu', 'unknown CPU')}: filled 1 thread, hollow several",
                 fontsize="medium")
    common.save(fig, args.out)


if __name__ == "__main__":
    common.guarded(main, "roofline.py")
