#!/usr/bin/python3
"""Scalability plot of an ncpbench sweep (or any results file).

Solver time (total_time_s: setup + iterations, the minimum over repeats) against the problem
size on log-log axes: one panel per size measure (DOFs, contacts, and bodies when the file has
them), one colour per solver, the fitted power law time ∝ size^slope drawn as a line with the
slope and R² of the fit (least squares on log10 values, over every problem) in the legend. The
slopes are also printed, one line per solver and measure.

    /usr/bin/python3 plots/scalability.py SWEEP.h5 -o OUT.png [--solver NAME ...]

Runs that failed or were not applicable have no meaningful time and are left out. Exits 2 with a
one-line message on a missing file, a file that is not a results file, or an empty selection.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import palette  # noqa: E402

plt = common.pyplot()
fail = common.failer("scalability.py")
h5py = common.require("h5py", "python3-h5py", fail)


MEASURES = (("num_dofs", "DOFs"), ("num_contacts", "contacts"), ("num_bodies", "bodies"))
VARIANT_FIELDS = ("solver", "settings", "budget", "warm_start")
NO_TIME = ("failed", "not-applicable")


def load(path):
    with common.open_results(path, h5py, fail, ("total_time_s", "num_dofs")) as f:
        runs = f["runs"]
        cols = {k: common.strings(runs[k][()])
                for k in VARIANT_FIELDS + ("dataset", "problem", "status")}
        cols["repeat"] = np.asarray(runs["repeat"][()], dtype=int)
        cols["time"] = np.asarray(runs["total_time_s"][()], dtype=float)
        for name, _ in MEASURES:
            if name in runs:
                cols[name] = np.asarray(runs[name][()], dtype=float)
        cols["attrs"] = common.attributes(f)
    return cols


def points(cols, solvers):
    """{variant: {(dataset, problem): (min time, {measure: size})}} over usable rows."""
    out = {}
    for i in range(len(cols["solver"])):
        if solvers and cols["solver"][i] not in solvers:
            continue
        t = cols["time"][i]
        if cols["status"][i] in NO_TIME or not (np.isfinite(t) and t > 0):
            continue
        variant = tuple(cols[k][i] for k in VARIANT_FIELDS)
        job = (cols["dataset"][i], cols["problem"][i])
        sizes = {m: cols[m][i] for m, _ in MEASURES if m in cols}
        best = out.setdefault(variant, {}).get(job)
        if best is None or t < best[0]:
            out[variant][job] = (t, sizes)
    return out


def title_of(cols, data):
    """What was swept, how many problems, and the budget."""
    attrs = cols["attrs"]
    datasets = sorted({d for jobs in data.values() for d, _ in jobs})
    if attrs.get("sweep_scene"):
        what = f"sweep of {attrs['sweep_scene']} over {attrs.get('sweep_param', '?')}"
    else:
        what = ", ".join(datasets) if len(datasets) <= 3 else f"{len(datasets)} datasets"
    problems = len({job for jobs in data.values() for job in jobs})
    budgets = {v[2] for v in data}
    budget = common.budget_text(budgets.pop()) if len(budgets) == 1 else "budgets differ (legend)"
    return f"{what}: {problems} problems; {budget}; time = min over repeats"


def fit(x, y):
    """Least-squares slope, intercept and R² of log10 y against log10 x; None when x is constant."""
    lx, ly = np.log10(x), np.log10(y)
    if len(np.unique(lx)) < 2:
        return None
    slope, intercept = np.polyfit(lx, ly, 1)
    residual = ly - (slope * lx + intercept)
    total = np.sum((ly - ly.mean()) ** 2)
    r2 = 1.0 - np.sum(residual**2) / total if total > 0 else 1.0
    return slope, intercept, r2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results file of `ncpbench sweep` (or `run`)")
    ap.add_argument("-o", "--out", required=True, help="output image (.png)")
    ap.add_argument("--solver", action="append", default=[], help="only these solvers (repeatable)")
    args = ap.parse_args()

    cols = load(args.results)
    known = set(cols["solver"])
    for s in args.solver:
        if s not in known:
            fail(f"--solver {s}: not in {args.results} (has: {', '.join(sorted(known))})")
    data = points(cols, set(args.solver))
    if not data:
        fail(f"{args.results}: no run with a time (every selected run failed or was not applicable)")
    measures = [(m, name) for m, name in MEASURES
                if m in cols and any(s[m] > 0 for jobs in data.values() for _, s in jobs.values())]
    names = common.variant_labels(list(data))
    look = palette.styles(names.values())

    fig, axes = plt.subplots(1, len(measures), figsize=(5.5 * len(measures), 4.5), squeeze=False)
    for ax, (measure, name) in zip(axes[0], measures):
        for variant, jobs in sorted(data.items()):
            x = np.array([s[measure] for _, s in jobs.values()], dtype=float)
            t = np.array([t for t, _ in jobs.values()], dtype=float)
            if not (np.all(np.isfinite(x)) and np.all(np.isfinite(t))):
                fail(f"{args.results}: /runs/{measure} or the times of {variant} hold a "
                     "non-finite value: no run writes one (a damaged file)")
            keep = x > 0
            x, t = x[keep], t[keep]
            if len(x) == 0:
                continue
            colour, linestyle = look[names[variant]]
            ax.scatter(x, t * 1e3, s=14, color=colour, alpha=0.7)
            result = fit(x, t)
            if result is None:
                ax.plot([], [], color=colour, linestyle=linestyle,
                        label=f"{names[variant]}: one size, no fit")
                print(f"{names[variant]} vs {name}: one size, no fit")
                continue
            slope, intercept, r2 = result
            grid = np.logspace(np.log10(x.min()), np.log10(x.max()), 50)
            ax.plot(grid, 10 ** (slope * np.log10(grid) + intercept) * 1e3, color=colour,
                    linestyle=linestyle, label=f"{names[variant]}: slope {slope:.2f}, R² {r2:.3f}")
            print(f"{names[variant]} vs {name}: slope {slope:.4f}, R2 {r2:.4f} ({len(x)} problems)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(name)
        ax.set_ylabel("solver time [ms]")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title_of(cols, data), fontsize="medium")
    common.save(fig, args.out)


if __name__ == "__main__":
    common.guarded(main, "scalability.py")
