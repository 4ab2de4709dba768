"""Reading a results file (results/README.md) with h5py, without the module's C++ side."""


def read_results(path):
    """Rows of a results file as a list of dicts, one per job (columns as stored)."""
    import h5py
    import numpy as np

    with h5py.File(path, "r") as f:
        rows = f["runs"]
        cols = {}
        for name, ds in rows.items():
            if not isinstance(ds, h5py.Dataset):
                continue
            a = ds[()]
            if a.dtype.kind in "SO":
                a = np.array([x.decode() if isinstance(x, bytes) else x for x in a], dtype=object)
            cols[name] = a
    n = len(next(iter(cols.values()))) if cols else 0
    return [{k: v[i] for k, v in cols.items()} for i in range(n)]
