#!/usr/bin/python3
"""Convergence plot of an ncpbench results file, one figure per dataset.

Two panels sharing a log metric axis: the metric against time (ms) and against iteration, one
line per solver variant (colours from plots/palette.py). Over several problems the line is the
median over the problems at each grid time or iteration; a trace's value there is its last point
at or before it (its first value before it starts) and, once it has ended, its final value. A
solver's line ends where its longest trace ends. The y-range comes from the non-diverged runs
(at most 1e3 x their largest initial value); curves above it leave at the top edge with an "x".

    /usr/bin/python3 plots/convergence.py RESULTS.h5 -o OUT.png [--metric res004]
        [--problem NAME] [--dataset NAME] [--sidecar]

Several datasets and no --dataset: one figure per dataset, OUT-<dataset>.png. Each file written
is printed. --sidecar also writes PNG.json (colours, line styles, y-limits, where each line
ends) next to each figure, for checks.
Exits 2 with a one-line message on a missing file, metric, or empty selection.
"""

import argparse
import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()
fail = common.failer("convergence.py")
h5py = common.require("h5py", "python3-h5py", fail)


VARIANT_FIELDS = ("solver", "settings", "budget", "warm_start")
# Statuses of a run that ended normally; any other one is named in the legend.
NORMAL = ("converged", "max-iterations", "time-limit")


def load_runs(f, path):
    if "runs" not in f or "solver" not in f["runs"]:
        fail(f"{path} is not an ncpbench results file (no /runs/solver)")
    runs = f["runs"]
    cols = {k: common.strings(runs[k][()]) for k in VARIANT_FIELDS + ("problem", "dataset")}
    n = len(cols["solver"])
    cols["status"] = common.strings(runs["status"][()]) if "status" in runs else [""] * n
    cols["repeat"] = [int(v) for v in runs["repeat"][()]]
    return cols


def select_rows(runs, problem, dataset):
    """Row per (variant, dataset, problem) with the lowest repeat, after the filters."""
    chosen = {}
    for i in range(len(runs["solver"])):
        if problem is not None and runs["problem"][i] != problem:
            continue
        if dataset is not None and runs["dataset"][i] != dataset:
            continue
        key = tuple(runs[k][i] for k in VARIANT_FIELDS) + (runs["dataset"][i], runs["problem"][i])
        if key not in chosen or runs["repeat"][i] < runs["repeat"][chosen[key]]:
            chosen[key] = i
    return chosen


def load_trace(f, path, row, metric, diverged):
    """(iterations, times, values) in iteration order, or None without the metric.

    Zero and negative values cannot be drawn on a log axis and are left out; a non-finite value
    of a diverged run counts as +inf (above the axis), of any other run it is left out."""
    if "traces" not in f or str(row) not in f["traces"]:
        fail(f"{path} has no trace group /traces/{row}")
    group = f["traces"][str(row)]
    if metric not in group:
        return None
    iterations = np.asarray(group["iteration"][()], dtype=float)
    order = np.argsort(iterations, kind="stable")
    times = np.asarray(group["time_s"][()], dtype=float)[order]
    values = np.asarray(group[metric][()], dtype=float)[order]
    if diverged:
        values[~np.isfinite(values)] = np.inf
    keep = (values > 0) & ~np.isnan(values)
    return iterations[order][keep], times[keep], values[keep]


class Variant:
    def __init__(self):
        self.traces = []  # (iterations, times, values, diverged)
        self.statuses = {}
        self.problems = 0
        self.not_applicable = 0


def collect(f, path, chosen, metric):
    """{dataset: {variant: Variant}}; exits 2 when the metric is in no trace."""
    out, seen_metric = {}, False
    for key, (row, status) in sorted(chosen.items()):
        variant, dataset = key[: len(VARIANT_FIELDS)], key[len(VARIANT_FIELDS)]
        v = out.setdefault(dataset, {}).setdefault(variant, Variant())
        v.problems += 1
        if status == "not-applicable":
            v.not_applicable += 1
            continue
        v.statuses[status] = v.statuses.get(status, 0) + 1
        diverged = status == "diverged"
        trace = load_trace(f, path, row, metric, diverged)
        if trace is None:
            continue
        seen_metric = True
        if len(trace[0]) > 0:
            diverged = diverged or bool(np.any(np.isinf(trace[2])))
            v.traces.append(trace + (diverged,))
    if not seen_metric:
        first = f["traces"][str(next(iter(chosen.values()))[0])]
        available = ", ".join(sorted(k for k in first if k not in ("iteration", "time_s")))
        fail(f"metric '{metric}' is not in the traces of {path} (available: {available})")
    return out


def status_note(v):
    """'diverged 8/8' for the statuses other than the normal ones; '' when none."""
    ran = v.problems - v.not_applicable
    odd = [f"{s or 'no status'} {n}/{ran}"
           for s, n in sorted(v.statuses.items()) if s not in NORMAL]
    return ", ".join(odd)


def time_grid(points):
    return common.thin(points[points > 0], log=True)


def draw(variants, metric, dataset, problem, rows, out, sidecar):
    names = common.variant_labels(list(variants))
    look = palette.styles(names.values())
    reference = [t[2] for v in variants.values() for t in v.traces if not t[3]]
    if not reference:  # every run diverged: the axis still has to show something
        reference = [t[2][np.isfinite(t[2])] for v in variants.values() for t in v.traces]
    bottom, top = common.y_limits(reference)

    fig, (by_time, by_iter) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    handles, legend, exits, notes, ends = [], [], {}, [], {}
    tmin, tmax = np.inf, 0.0
    for variant in sorted(variants, key=lambda v: names[v]):
        v, name = variants[variant], names[variant]
        note = status_note(v)
        if v.not_applicable:
            notes.append(("n/a", f"{name} ({v.not_applicable}/{v.problems})"))
        if not v.traces:
            if v.problems > v.not_applicable:
                notes.append(("none", name + (f" ({note})" if note else "")))
            continue
        colour, linestyle = look[name]
        label = name + (f" ({note})" if note else "")
        style = dict(color=colour, linestyle=linestyle, linewidth=1.6)
        it_grid, iv = common.median_curve([(it, m) for it, _, m, _ in v.traces], common.thin)
        n = common.plot_clipped(by_iter, it_grid, iv, top, **style)
        ends[name] = {"iteration": float(it_grid[-1])}
        timed = [(t, m) for _, t, m, _ in v.traces if np.any(t > 0)]
        if timed:
            t_grid, tv = common.median_curve(timed, time_grid)
            if len(t_grid):
                n += common.plot_clipped(by_time, t_grid * 1e3, tv, top, **style)
                tmin, tmax = min(tmin, t_grid[0]), max(tmax, t_grid[-1])
                ends[name]["time_ms"] = float(t_grid[-1] * 1e3)
        exits[name] = n
        handles.append(plt.Line2D([], [], **style))
        legend.append(label)

    by_time.set(xscale="log", yscale="log", xlabel="time [ms]", ylabel=metric,
                title=f"{metric} vs time")
    if tmax > 0:
        by_time.set_xlim(tmin * 1e3 / 1.5, tmax * 1e3 * 1.5)
    by_iter.set(yscale="log", xlabel="iteration", title=f"{metric} vs iteration")
    by_iter.set_ylim(bottom, top)
    for ax in (by_time, by_iter):
        ax.grid(True, which="both", alpha=0.3)
    if handles:
        fig.legend(handles, legend, loc="upper left", bbox_to_anchor=(0.995, 0.88),
                   fontsize="small", title="solver (both panels)", title_fontsize="small")
    budgets = {variant[2] for variant in variants}
    budget = common.budget_text(budgets.pop()) if len(budgets) == 1 else "budgets differ (legend)"
    what = f"problem {problem}" if problem else f"median over {rows} problem{'s' * (rows != 1)}"
    title = f"{dataset}: {metric}, {what}\n{budget}; lowest repeat of each run"
    fig.suptitle(title, fontsize="medium")
    foot = ["Each trace holds its last value after it stops; a line ends where the solver's "
            f"longest run ends. x: the curve leaves the axis (diverged, or above "
            f"{common.CLIP_FACTOR:g} x the largest initial value of the non-diverged runs)."]
    na = [text for kind, text in notes if kind == "n/a"]
    if na:
        foot.append("not applicable: " + ", ".join(na))
    none = [text for kind, text in notes if kind == "none"]
    if none:
        foot.append("no trace to draw: " + ", ".join(none))
    fig.text(0.01, 0.0, "\n".join(foot), fontsize="small", va="top", ha="left", wrap=True)
    common.save(fig, out, bbox_inches="tight")
    if sidecar:
        info = {
            "dataset": dataset, "metric": metric, "problems": rows, "title": title,
            "ylim": [bottom, top],
            "colors": {name: look[name][0] for name in names.values()},
            "linestyles": {name: str(look[name][1]) for name in names.values()},
            "legend": legend, "exits": exits, "ends": ends,
            "not_applicable": na, "no_trace": none,
        }
        common.write_text(out + ".json", json.dumps(info))  # one line: easy to grep


def output_name(out, dataset, several):
    if not several:
        return out
    stem, ext = os.path.splitext(out)
    return f"{stem}-{re.sub(r'[^A-Za-z0-9._+-]', '_', dataset)}{ext or '.png'}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", help="results HDF5 file written by ncpbench")
    parser.add_argument("-o", "--output", required=True,
                        help="PNG file to write (OUT-<dataset>.png per dataset when several)")
    parser.add_argument("--metric", default="res004", help="trace metric (default res004)")
    parser.add_argument("--problem", help="one problem instead of the median over all")
    parser.add_argument("--dataset", help="only this dataset")
    parser.add_argument("--sidecar", action="store_true",
                        help="also write PNG.json with the colours, line styles and y-limits")
    args = parser.parse_args()

    with common.open_results(args.results, h5py, fail) as f:
        runs = load_runs(f, args.results)
        chosen = select_rows(runs, args.problem, args.dataset)
        if not chosen:
            fail(f"no runs in {args.results} match problem={args.problem} dataset={args.dataset}")
        chosen = {k: (row, runs["status"][row]) for k, row in chosen.items()}
        by_dataset = collect(f, args.results, chosen, args.metric)
    drawable = {d: vs for d, vs in by_dataset.items() if any(v.traces for v in vs.values())}
    if not drawable:
        fail(f"the selected traces of {args.results} are empty")
    several = len(by_dataset) > 1
    # Every output checked before the first is written: names two datasets share ("a b" and
    # "a_b" both give OUT-a_b.png), inputs, folders; one figure would replace the other.
    outs = {}
    for dataset in sorted(drawable):
        out = output_name(args.output, dataset, several)
        if out in outs.values():
            other = next(d for d, o in outs.items() if o == out)
            fail(f"datasets '{other}' and '{dataset}' would both be drawn to {out}: draw them one "
                 "at a time with --dataset and -o")
        outs[dataset] = out
        for path in [out] + ([out + ".json"] if args.sidecar else []):
            common.check_output(path, fail)
    for dataset in sorted(by_dataset):
        if dataset not in drawable:
            print(f"convergence.py: dataset {dataset}: no trace to draw, no figure",
                  file=sys.stderr)
            continue
        out = output_name(args.output, dataset, several)
        problems = len({k[-1] for k in chosen if k[-2] == dataset})
        draw(drawable[dataset], args.metric, dataset, args.problem, problems, out, args.sidecar)
        print(f"convergence.py: wrote {out}")


if __name__ == "__main__":
    common.guarded(main, "convergence.py")
