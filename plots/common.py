"""Shared by the plot scripts: labels, budgets, medians of traces on a grid, clipped curves.

Rules (also in plots/README.md):
- A trace's value at grid point x (a time or an iteration) is its last point at or before x;
  before its first point, its first value (where the solver started). After its last point it
  keeps its last value (what the solver returned), so a median is never drawn from the few runs
  that are still going. A solver's curve ends at the end of its longest trace.
- The y-axis comes from the non-diverged traces only: from their smallest value up to their
  largest, but at most CLIP_FACTOR × their largest initial value. A curve above the top leaves
  the axis at the top edge, marked with an "x"; a diverged run never changes the limits.
"""

import importlib
import os
import sys

import numpy as np

# Values above this factor times the largest initial value of the non-diverged runs are clipped.
CLIP_FACTOR = 1e3
# Grids beyond this many points are thinned to a log-spaced grid (memory: traces × points).
MAX_GRID = 4000


def strings(column):
    """h5py returns strings as bytes."""
    return [v.decode() if isinstance(v, bytes) else str(v) for v in column]


def variant_items(variant):
    """The settings, budget and warm start of a (solver, settings, budget, warm_start) tuple."""
    parts = {s for s in (variant[1] + ";" + variant[2]).split(";") if s}
    return parts | {"warm_start=" + variant[3]}


def variant_labels(variants):
    """The solver name, plus the settings that tell apart several variants of one solver."""
    by_solver = {}
    for v in variants:
        by_solver.setdefault(v[0], []).append(v)
    out = {}
    for solver, vs in by_solver.items():
        common = set.intersection(*(variant_items(v) for v in vs))
        for v in vs:
            differing = sorted(variant_items(v) - common)
            out[v] = solver if len(vs) == 1 else f"{solver} ({', '.join(differing)})"
    return out


def parse_budget(budget):
    """'iters=500;time_ms=0;tol=0;tol_metric=res004' -> dict of strings."""
    return dict(p.split("=", 1) for p in budget.split(";") if "=" in p)


def budget_text(budget):
    """Readable budget: '3000 iterations, 5000 ms per problem; tolerance 1e-10 (res004)'."""
    b = parse_budget(budget)

    def num(key):
        try:
            return float(b.get(key, "0"))
        except ValueError:
            return 0.0

    limits = []
    if num("iters") > 0:
        limits.append(f"{num('iters'):g} iterations")
    if num("time_ms") > 0:
        limits.append(f"{num('time_ms'):g} ms")
    text = "budget " + (", ".join(limits) + " per problem" if limits else "unlimited")
    if num("tol") > 0:
        text += f"; tolerance {num('tol'):g}"
        if b.get("tol_metric"):
            text += f" ({b['tol_metric']})"
    else:
        text += "; no tolerance"
    return text


def hold_on_grid(x, values, grid):
    """Values of a step trace at grid points: last point at or before, first value before it."""
    index = np.searchsorted(x, grid, side="right") - 1
    return values[np.clip(index, 0, None)]


def median_curve(traces, grid_of):
    """Median over traces of (x, values) held on a grid; returns (grid, medians).

    `grid_of(points)` turns the sorted union of the traces' x into the grid (e.g. thins it).
    The grid spans the earliest first point to the latest last point of the traces."""
    points = np.unique(np.concatenate([x for x, _ in traces]))
    grid = grid_of(points)
    stacked = np.vstack([hold_on_grid(x, v, grid) for x, v in traces])
    return grid, np.median(stacked, axis=0)


def thin(points, log=False):
    """The points themselves (the median is then exact), or MAX_GRID spaced points over them."""
    if len(points) <= MAX_GRID:
        return points
    lo, hi = points[0], points[-1]
    if log and lo > 0:
        grid = np.geomspace(lo, hi, MAX_GRID)
    else:
        grid = np.linspace(lo, hi, MAX_GRID)
    grid[0], grid[-1] = lo, hi  # exact ends: the curve ends where the longest trace does
    return grid


def y_limits(reference):
    """(bottom, top) of a log axis from the value arrays of the non-diverged traces."""
    finite = [v[np.isfinite(v) & (v > 0)] for v in reference]
    finite = [v for v in finite if len(v)]
    if not finite:
        return 1e-1, 1e1
    first = max(v[0] for v in finite)
    low = min(v.min() for v in finite)
    high = min(max(v.max() for v in finite), CLIP_FACTOR * first)
    # Half a decade of room at the bottom, a little at the top (the "x" markers sit on it).
    return low / 3.0, max(high * 1.5, low * 10.0)


def plot_clipped(ax, x, y, top, **style):
    """Draws y (steps) with the parts above `top` cut off: where the curve leaves the axis it
    rises to the top edge and gets an "x" there. Returns the number of exits."""
    y = np.asarray(y, dtype=float)
    above = ~(y <= top) & ~np.isnan(y)
    shown = np.where(above, np.nan, y)
    exits = np.nonzero(above & ~np.concatenate([[False], above[:-1]]))[0]
    shown[exits] = top
    line = ax.plot(x, shown, drawstyle="steps-post", **style)[0]
    if len(exits):
        ax.plot(np.asarray(x)[exits], np.full(len(exits), top), linestyle="none", marker="x",
                markersize=8, markeredgewidth=2, color=line.get_color(), clip_on=False)
    return len(exits)


def pyplot():
    """matplotlib.pyplot on the Agg backend: the scripts write files and need no display."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# The files a script read: its figure never replaces one of them (save).
INPUTS = []
# What one of a results file's datasets may hold: 64 × the file's size + 64 MB, the bound of
# ncpbench's own reader (a forged string width or extent would otherwise be allocated whole).
READ_FACTOR, READ_SLACK = 64, 64 << 20


def note_input(path):
    """Records `path` as an input of this script (see save)."""
    INPUTS.append(path)


# Read in a child process first: libhdf5 aborts or crashes on some damaged files (ncpbench reads
# its inputs in a forked child for the same reason). Every dataset is read whole there, after its
# declared size is checked, and every attribute.
_PROBE = """
import sys, h5py
path, limit, rule = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def visit(name, obj):
    for key in obj.attrs:
        obj.attrs[key]
    if isinstance(obj, h5py.Dataset):
        size = obj.size * obj.dtype.itemsize
        if size > limit:
            print(f"/{name} declares {size:.3g} bytes, more than {rule}: a damaged file",
                  file=sys.stderr)
            sys.exit(3)
        obj[()]
with h5py.File(path, "r") as f:
    f.visititems(visit)
"""


def probe_hdf5(path, fail):
    """fail() naming `path` where reading all of it would crash, allocate more than the file can
    hold, or raise."""
    import subprocess
    limit = READ_FACTOR * os.path.getsize(path) + READ_SLACK
    rule = f"{READ_FACTOR} x the file's size + {READ_SLACK >> 20} MB"
    p = subprocess.run([sys.executable, "-c", _PROBE, path, str(limit), rule],
                       capture_output=True, text=True, errors="replace")
    if p.returncode < 0:
        fail(f"{path}: the HDF5 library ended with signal {-p.returncode} reading it: a damaged "
             "file")
    if p.returncode != 0:
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        fail(f"{path}: {lines[-1] if lines else 'unreadable'}")


def open_results(path, h5py, fail, columns=()):
    """The results file at `path`, open for reading, whose /runs holds `columns`; anything else
    (no file, not HDF5, not a results file, a dataset declaring more than the file can hold)
    fails with one line naming the file."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    note_input(path)
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        fail(f"{path}: not an HDF5 file ({e})")
    format_ = f.attrs.get("format", b"")
    if (format_.decode(errors="replace") if isinstance(format_, bytes) else str(format_)) != \
            "ncpbench-results":
        f.close()
        fail(f"{path}: root attribute format is not 'ncpbench-results': not an ncpbench results "
             "file")
    missing = [c for c in columns if "runs" not in f or c not in f["runs"]]
    if missing:
        f.close()
        fail(f"{path}: not an ncpbench results file (no /runs/{missing[0]})")
    probe_hdf5(path, fail)
    check_lengths(f, path, fail)
    return f


def check_lengths(f, path, fail):
    """fail() where /runs' columns, or one trace's columns, are not equally long: a short column
    shifted or dropped rows without a word (ncpbench's reader refuses such a file too)."""
    groups = [("/runs", f["runs"], "job_key")] if "runs" in f else []
    if "traces" in f:
        groups += [(f"/traces/{k}", g, "iteration") for k, g in f["traces"].items()
                   if hasattr(g, "items")]
    for where, group, key in groups:
        lengths = {name: d.shape[0] for name, d in group.items()
                   if hasattr(d, "shape") and len(d.shape) == 1}
        if key in lengths:
            for name, n in sorted(lengths.items()):
                if n != lengths[key]:
                    fail(f"{path}: {where}/{name} has {n} entries, {where}/{key} "
                         f"{lengths[key]}: the columns must be equally long")


def attributes(f):
    """The file's root attributes as strings."""
    return {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f.attrs.items()}


def check_output(out, fail):
    """fail() where writing `out` would replace one of the script's inputs or something that is
    not a regular file (a folder, a FIFO, a device), or where `out` is empty."""
    if not out:
        fail("output path '': must name a file")
    if os.path.lexists(out) and not os.path.isfile(out):
        fail(f"{out}: is not a regular file (a folder, a FIFO or a device): the figure replaces "
             "a file, and nothing else")
    for path in INPUTS:
        if os.path.exists(out) and os.path.exists(path) and os.path.samefile(out, path):
            fail(f"{out}: is an input of this command; write the figure to another file")


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(out, text):
    """Writes `text` to `out` whole or not at all (temporary file, then rename), never over an
    input (check_output)."""
    import tempfile
    check_output(out, failer(os.path.basename(sys.argv[0])))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(out) + ".tmp.",
                               dir=os.path.dirname(out) or ".")
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would make the output private
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def save(fig, out, dpi=120, **savefig_args):
    """Lays the figure out and writes it to `out` under a fresh temporary name (one no input can
    have), renamed when complete: a failed run leaves no partial image and no stray file."""
    import tempfile
    import matplotlib.pyplot as plt
    try:
        check_output(out, failer(os.path.basename(sys.argv[0])))
    except SystemExit:
        plt.close(fig)
        raise
    fig.tight_layout()
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(out) + ".tmp.", suffix=".png",
                               dir=os.path.dirname(out) or ".")
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would make the figure private
    try:
        fig.savefig(tmp, dpi=dpi, **savefig_args)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    finally:
        plt.close(fig)


def read_csv(path, fail):
    """The rows of a CSV file as dicts, or fail() naming a missing or unreadable file."""
    import csv
    if not os.path.isfile(path):  # a FIFO would block the open until a writer comes
        fail(f"{path}: no such file" if not os.path.lexists(path) else
             f"{path}: not a regular file (a folder, a FIFO or a device)")
    note_input(path)
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail(f"{path}: {e}")


def finish(fig, out, title, script):
    """Titles, writes (save) and reports a single-figure script's figure."""
    if title:
        fig.suptitle(title, fontsize=10)
    save(fig, out)
    print(f"{script}: wrote {out}")


def failer(script):
    """fail(message): the one-line error of `script` on stderr, exit status 2."""
    def fail(message):
        print(f"{script}: {message}", file=sys.stderr)
        sys.exit(2)
    return fail


def require(module, package, fail):
    """The module, or fail() naming the Debian package that provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        fail(f"{module} is missing (install {package})")


def guarded(main, script):
    """Runs a script's main(): what a damaged or forged input raises past the script's own checks
    (a missing column, a short array, bytes that are not UTF-8, a full disk) is one line naming
    the error, exit status 2, as ncpbench's own refusals, not a traceback."""
    try:
        return main()
    except (KeyError, IndexError, ValueError, TypeError, UnicodeDecodeError, OSError,
            MemoryError, RuntimeError) as e:  # h5py reports damaged metadata as RuntimeError
        failer(script)(f"unreadable input or unwritable output: {type(e).__name__}: {e}")

