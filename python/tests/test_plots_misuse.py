"""The plot scripts and read_results on damaged or forged results files: one line and exit 2
(a ValueError for read_results), never a traceback, a crash of the interpreter, an allocation of
what a forged header declares, or a figure written over its own input."""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
import pytest

from conftest import SOURCE_DIR, FCLIB, run_cli

PLOTS = os.path.join(SOURCE_DIR, "plots")


@pytest.fixture(scope="module")
def results(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("plots")
    out = d / "r.h5"
    rc, _, err = run_cli(cli, "run", FCLIB, "-s", "pgs,apgd", "--iters", 20, "--trace", 5, "-q",
                         "-o", out)
    assert rc == 0, err
    return out


def variant(results, tmp_path, name, change):
    path = tmp_path / name
    shutil.copy(results, path)
    if change:
        with h5py.File(path, "r+") as f:
            change(f)
    return str(path)


def forged_status(f):  # 8 strings of 2 GB each, declared in a file of kilobytes
    n = f["runs/status"].shape[0]
    del f["runs/status"]
    f["runs"].create_dataset("status", shape=(n,), dtype="S2147483647", chunks=(1,))


def damaged(path):
    data = bytearray(open(path, "rb").read())
    rng = np.random.default_rng(7)
    for at in rng.integers(512, len(data) - 64, 40):
        data[at:at + 16] = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
    open(path, "wb").write(bytes(data))
    return path


@pytest.mark.parametrize("script", ["convergence.py", "scalability.py", "roofline.py"])
def test_plots_refuse_damaged_files_in_one_line(results, tmp_path, script):
    cases = {
        "forged": variant(results, tmp_path, "forged.h5", forged_status),
        "no format": variant(results, tmp_path, "noformat.h5", lambda f: f.attrs.__delitem__("format")),
        "no column": variant(results, tmp_path, "nosolver.h5", lambda f: f["runs"].__delitem__("solver")),
        "damaged": damaged(variant(results, tmp_path, "damaged.h5", None)),
    }
    for what, path in cases.items():
        p = subprocess.run([sys.executable, os.path.join(PLOTS, script), path, "-o",
                            str(tmp_path / "x.png")], capture_output=True, text=True)
        assert p.returncode == 2, f"{what}: exit {p.returncode}\n{p.stderr}"
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "bytes, more than 64 x" in subprocess.run(
        [sys.executable, os.path.join(PLOTS, script), cases["forged"], "-o",
         str(tmp_path / "x.png")], capture_output=True, text=True).stderr


def test_a_figure_is_not_written_over_its_input(results, tmp_path):
    path = variant(results, tmp_path, "self.h5", None)
    before = open(path, "rb").read()
    p = subprocess.run([sys.executable, os.path.join(PLOTS, "convergence.py"), path, "-o", path],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "is an input of this command" in p.stderr, p.stderr
    assert open(path, "rb").read() == before


def test_read_results_names_what_is_wrong(results, tmp_path):
    import ncpbench
    assert len(ncpbench.read_results(str(results))) > 0
    with pytest.raises(ValueError, match="declares .* bytes, more than 64 x"):
        ncpbench.read_results(variant(results, tmp_path, "forged.h5", forged_status))

    def short(f):
        a = f["runs/iterations"][()]
        del f["runs/iterations"]
        f["runs"].create_dataset("iterations", data=a[:-1])
    with pytest.raises(ValueError, match="unequal lengths"):
        ncpbench.read_results(variant(results, tmp_path, "short.h5", short))
    with pytest.raises(ValueError, match="not an ncpbench results file"):
        ncpbench.read_results(variant(results, tmp_path, "nf.h5", lambda f: f.attrs.__delitem__("format")))
