"""`ncpbench claims` on reproduction files whose /claims table was edited: a verdict the ledger
does not know, a verdict on a run capped by --max-iters (which carries none) and a claim of
another protocol are refused in one line, where they were counted (or silently dropped)."""
import os
import shutil

import h5py
import numpy as np
import pytest

from conftest import SOURCE_DIR, run_cli

BASELINE = os.path.join(SOURCE_DIR, "results", "baselines", "reproduce", "004-fig7.h5")


def edited(tmp_path, name, column, value):
    path = tmp_path / name
    shutil.copy(BASELINE, path)
    with h5py.File(path, "r+") as f:
        a = f["claims/" + column][()]
        a[...] = value
        dtype = f["claims/" + column].dtype
        del f["claims/" + column]
        f.create_dataset("claims/" + column, data=a.astype(dtype) if dtype.kind != "O" else a,
                         dtype=dtype)
    return str(path)


@pytest.mark.parametrize("column,value,needle", [
    ("verdict", b"yes!", "verdict 'yes!' is not one of"),
    ("verdict", b"reproduced", "verdict 'reproduced' for a run of"),
    ("protocol", b"zzz-9", "protocol 'zzz-9' is not the file's '004-fig7'"),
])
def test_forged_claims_are_refused(cli, tmp_path, column, value, needle):
    with h5py.File(BASELINE, "r") as f:
        assert f["claims/max_iters"][0] > 0  # the baseline is a capped run: no verdicts
    rc, _, err = run_cli(cli, "claims", edited(tmp_path, "c.h5", column, value), "-o",
                         tmp_path / "l.md")
    assert rc == 2, err
    assert needle in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "l.md").exists()
    assert run_cli(cli, "claims", BASELINE, "-o", tmp_path / "ok.md")[0] == 0


def test_an_observation_given_twice_is_refused(cli, tmp_path):
    # Read as whichever a lookup met first; the writer keeps one figure per part and key.
    path = tmp_path / "o.h5"
    shutil.copy(BASELINE, path)
    with h5py.File(path, "r+") as f:
        for name in ("part", "key", "text", "value"):
            a = f["observations/" + name][()]
            dtype = f["observations/" + name].dtype
            del f["observations/" + name]
            f.create_dataset("observations/" + name, data=np.concatenate([a, a[:1]]), dtype=dtype)
    rc, _, err = run_cli(cli, "reproduce", "004-fig7", "--from", path, "-o", tmp_path / "r")
    assert rc == 2 and "again (first at 0): one figure per part and key" in err, err
