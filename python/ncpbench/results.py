"""Reading a results file (results/README.md) with h5py, without the module's C++ side."""
import os

# What one column may hold: 64 × the file's size + 64 MB, the bound of ncpbench's own reader (a
# forged string width or extent would otherwise be allocated whole).
READ_FACTOR, READ_SLACK = 64, 64 << 20


def read_results(path):
    """Rows of a results file as a list of dicts, one per job (columns as stored). A file that is
    not one, or whose columns disagree, raises ValueError naming the file and the column."""
    import h5py
    import numpy as np

    def fail(what):
        raise ValueError(f"{path}: {what}")

    limit = READ_FACTOR * os.path.getsize(path) + READ_SLACK
    with h5py.File(path, "r") as f:
        fmt = f.attrs.get("format", b"")
        if (fmt.decode(errors="replace") if isinstance(fmt, bytes) else str(fmt)) != \
                "ncpbench-results":
            fail("root attribute format is not 'ncpbench-results': not an ncpbench results file")
        if not isinstance(f.get("runs"), h5py.Group):
            fail("no /runs group: not an ncpbench results file")
        cols = {}
        for name, ds in f["runs"].items():
            if not isinstance(ds, h5py.Dataset):
                continue
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
    return [{k: v[i] for k, v in cols.items()} for i in range(n)]
