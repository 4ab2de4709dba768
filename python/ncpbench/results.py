"""Reading a results file (results/README.md) with h5py, without the module's C++ side."""
import os

# What one column may hold: 64 × the file's size + 64 MB, the bound of ncpbench's own reader (a
# forged string width or extent would otherwise be allocated whole).
READ_FACTOR, READ_SLACK = 64, 64 << 20
# The newest schema this reader knows, and a row's statuses (harness/run_record.h).
SCHEMA_VERSION = 1
STATUSES = ("converged", "max-iterations", "time-limit", "diverged", "failed", "not-applicable",
            "stopped")


def read_results(path):
    """Rows of a results file as a list of dicts, one per job (columns as stored). A file that is
    not one, or whose columns disagree, raises ValueError naming the file and the column."""
    import h5py
    import numpy as np

    def fail(what):
        raise ValueError(f"{path}: {what}")

    path = os.fspath(path)
    if "\0" in path:
        fail("a path with a NUL character names another file")
    # Before h5py opens it: a FIFO would block the open forever, a folder gives HDF5's dump.
    if not os.path.isfile(path):
        fail("no such file" if not os.path.exists(path) else "not a regular file (a folder, a FIFO "
             "or a device): a results file is a file")
    limit = READ_FACTOR * os.path.getsize(path) + READ_SLACK
    try:
        f = h5py.File(path, "r")
    except (OSError, RuntimeError) as e:
        fail(f"cannot open as HDF5 (truncated, corrupt, not HDF5, or held open for writing by "
             f"another program): {str(e).splitlines()[0]}")
    with f:
        fmt = f.attrs.get("format", b"")
        if (fmt.decode(errors="replace") if isinstance(fmt, bytes) else str(fmt)) != \
                "ncpbench-results":
            fail("root attribute format is not 'ncpbench-results': not an ncpbench results file")
        version = f.attrs.get("schema_version")
        if not (isinstance(version, np.integer) or (isinstance(version, np.ndarray) and
                version.size == 1 and version.dtype.kind in "iu")) or \
                not 1 <= int(version) <= SCHEMA_VERSION:
            fail(f"root attribute schema_version = {version!r}: must be one integer in "
                 f"[1, {SCHEMA_VERSION}]")
        if not isinstance(f.get("runs"), h5py.Group):
            fail("no /runs group: not an ncpbench results file")
        cols = {}
        for name in f["runs"]:
            # A column linked from elsewhere would be read in place of the file's own.
            link = f["runs"].get(name, getlink=True)
            if not isinstance(link, h5py.HardLink):
                fail(f"/runs/{name}: a {type(link).__name__}: a results file holds its data itself")
            ds = f["runs"][name]
            if not isinstance(ds, h5py.Dataset):
                fail(f"/runs/{name}: a group: each column is a dataset")
            if ds.ndim != 1:
                fail(f"/runs/{name}: {ds.ndim}-D, must be 1-D (one entry per job)")
            if ds.size * ds.dtype.itemsize > limit:
                fail(f"/runs/{name} declares {ds.size * ds.dtype.itemsize:.3g} bytes, more than "
                     f"{READ_FACTOR} x the file's size + {READ_SLACK >> 20} MB")
            a = ds[()]
            if a.dtype.kind in "SO":
                try:
                    a = np.array([x.decode() if isinstance(x, bytes) else x for x in a],
                                 dtype=object)
                except UnicodeDecodeError as e:
                    fail(f"/runs/{name}: not UTF-8 text ({e})")
            cols[name] = a
    lengths = {len(a) for a in cols.values()}
    if len(lengths) > 1:
        fail("/runs columns of unequal lengths: " +
             ", ".join(f"{k} {len(a)}" for k, a in sorted(cols.items())))
    n = lengths.pop() if lengths else 0
    for name in ("job_key", "solver", "status"):
        if name not in cols:
            fail(f"/runs/{name}: missing (every results file has it)")
    for i, status in enumerate(cols["status"]):
        if status not in STATUSES:
            fail(f"/runs/status[{i}] = '{status}': must be one of {', '.join(STATUSES)}")
    return [{k: v[i] for k, v in cols.items()} for i in range(n)]
