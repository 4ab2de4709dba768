#!/usr/bin/python3
"""Convergence plot of an ncpbench results file.

Two panels, log scale: a metric against time (ms) and against iteration, one line per solver.
Over several problems the line is the median per iteration; a trace that ended early keeps its
final metric value (a converged solver stays converged) but no longer counts towards the median
time.

    /usr/bin/python3 plots/convergence.py RESULTS.h5 -o OUT.png [--metric res004]
        [--problem NAME] [--dataset NAME]

Exits 2 with a one-line message on a missing file, metric, or empty selection.
"""

import argparse
import os
import sys
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import numpy as np  # noqa: E402

try:
    import h5py  # noqa: E402
except ImportError:
    print("convergence.py: h5py is missing (install python3-h5py)", file=sys.stderr)
    sys.exit(2)

VARIANT_FIELDS = ("solver", "settings", "budget", "warm_start")


def fail(message):
    print(f"convergence.py: {message}", file=sys.stderr)
    sys.exit(2)


def strings(column):
    """h5py returns variable-length strings as bytes."""
    return [v.decode() if isinstance(v, bytes) else str(v) for v in column]


def load_runs(f, path):
    if "runs" not in f or "solver" not in f["runs"]:
        fail(f"{path} is not an ncpbench results file (no /runs/solver)")
    runs = f["runs"]
    cols = {k: strings(runs[k][()]) for k in VARIANT_FIELDS + ("problem", "dataset")}
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


def items(variant):
    settings, budget, warm = variant[1], variant[2], variant[3]
    parts = [s for s in (settings + ";" + budget).split(";") if s]
    return set(parts) | {"warm_start=" + warm}


def labels(variants):
    """The solver name, plus the settings that tell apart several variants of one solver."""
    by_solver = {}
    for v in variants:
        by_solver.setdefault(v[0], []).append(v)
    out = {}
    for solver, vs in by_solver.items():
        common = set.intersection(*(items(v) for v in vs))
        for v in vs:
            differing = sorted(items(v) - common)
            out[v] = solver if len(vs) == 1 else f"{solver} ({', '.join(differing)})"
    return out


def load_trace(f, path, row, metric):
    if "traces" not in f or str(row) not in f["traces"]:
        fail(f"{path} has no trace group /traces/{row}")
    group = f["traces"][str(row)]
    if metric not in group:
        return None
    iterations = np.asarray(group["iteration"][()], dtype=float)
    order = np.argsort(iterations, kind="stable")
    values = np.asarray(group[metric][()], dtype=float)[order]
    values[~(np.isfinite(values) & (values > 0))] = np.nan  # not drawable on a log scale
    return iterations[order], np.asarray(group["time_s"][()], dtype=float)[order], values


def on_grid(iterations, values, grid, hold):
    """Step-interpolates a trace onto `grid`; after its end, holds the last value or gives NaN."""
    index = np.searchsorted(iterations, grid, side="right") - 1
    out = np.where(index >= 0, values[np.clip(index, 0, None)], np.nan)
    if not hold:
        out[grid > iterations[-1]] = np.nan
    return out


def median_curve(traces):
    """(iteration, time_ms, metric) medians over traces, per iteration of any trace."""
    if len(traces) == 1:
        it, t, m = traces[0]
        return it, t * 1e3, m
    grid = np.unique(np.concatenate([t[0] for t in traces]))
    metric = np.vstack([on_grid(it, m, grid, hold=True) for it, _, m in traces])
    time = np.vstack([on_grid(it, t, grid, hold=False) for it, t, _ in traces])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns are expected
        return grid, np.nanmedian(time, axis=0) * 1e3, np.nanmedian(metric, axis=0)


def collect(f, path, chosen, metric):
    """Traces per variant; exits 2 when the metric is in none of them."""
    traces, seen_metric = {}, False
    for key, row in sorted(chosen.items()):
        trace = load_trace(f, path, row, metric)
        if trace is None:
            continue
        seen_metric = True
        if len(trace[0]) > 0:
            traces.setdefault(key[: len(VARIANT_FIELDS)], []).append(trace)
    if not seen_metric:
        first = f["traces"][str(next(iter(chosen.values())))]
        available = ", ".join(sorted(k for k in first if k not in ("iteration", "time_s")))
        fail(f"metric '{metric}' is not in the traces of {path} (available: {available})")
    if not traces:
        fail(f"the selected traces of {path} are empty")
    return traces


def title_of(metric, problem, dataset, problems):
    if problem:
        what = f"problem {problem}" + (f", median over {problems} datasets" if problems > 1 else "")
    else:
        what = f"median over {problems} problem(s)"
    return f"{metric} — {what}" + (f", dataset {dataset}" if dataset else "")


def draw(traces, metric, title, out):
    fig, (by_time, by_iter) = plt.subplots(1, 2, figsize=(12, 4.5))
    names = labels(list(traces))
    for variant in sorted(traces, key=lambda v: names[v]):
        it, time_ms, values = median_curve(traces[variant])
        (line,) = by_time.plot(time_ms, values, label=names[variant])
        by_iter.plot(it, values, color=line.get_color(), label=names[variant])
    by_time.set(xscale="log", yscale="log", xlabel="time [ms]", ylabel=metric,
                title=f"{metric} vs time")
    by_iter.set(yscale="log", xlabel="iteration", ylabel=metric, title=f"{metric} vs iteration")
    for ax in (by_time, by_iter):
        ax.grid(True, which="both", alpha=0.3)
    by_iter.legend(loc="best", fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", help="results HDF5 file written by ncpbench")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    parser.add_argument("--metric", default="res004", help="trace metric (default res004)")
    parser.add_argument("--problem", help="one problem instead of the median over all")
    parser.add_argument("--dataset", help="only this dataset")
    args = parser.parse_args()

    if not os.path.isfile(args.results):
        fail(f"{args.results} does not exist")
    try:
        f = h5py.File(args.results, "r")
    except OSError as e:
        fail(f"cannot open {args.results}: {e}")
    with f:
        runs = load_runs(f, args.results)
        chosen = select_rows(runs, args.problem, args.dataset)
        if not chosen:
            fail(f"no runs in {args.results} match problem={args.problem} dataset={args.dataset}")
        traces = collect(f, args.results, chosen, args.metric)
        problems = len({key[-2:] for key in chosen})
    draw(traces, args.metric, title_of(args.metric, args.problem, args.dataset, problems),
         args.output)


if __name__ == "__main__":
    main()
