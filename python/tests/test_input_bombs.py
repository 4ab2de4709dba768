"""A small file whose datasets each pass the per-dataset bound (64 x the file's size + 64 MB) but
add up to far more (8 M compressed zeros apiece, 0.6 MB of file for 256 MB of vectors): refused
by the sum, naming the dataset where it was crossed, before the rest is allocated."""
import h5py
import numpy as np

from conftest import run_cli


def test_many_small_bombs_are_refused_by_their_sum(cli, tmp_path):
    import ncpbench
    path = str(tmp_path / "bomb.h5")
    ncpbench.write_dataset(path, ncpbench.generate("random", 1, seed=3,
                                                   params={"contacts": 12, "bodies": 24}))
    with h5py.File(path, "r+") as f:
        g = f["problems"][list(f["problems"])[0]]
        for name in ["b", "e"]:
            del g[name]
            d = g.create_dataset(name, shape=(8_000_000,), dtype="f8", chunks=(1 << 20,),
                                 compression="gzip", compression_opts=9, fillvalue=0.0)
            d[:] = 0.0
    rc, _, err = run_cli(cli, "info", path)
    assert rc == 2
    assert err.count("\n") == 1, err
    assert "/e: with it the file's datasets hold 1.28e+08 bytes, more than 64 x its" in err, err
