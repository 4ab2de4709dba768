"""Fixtures of the Python tests: the module (skipped with the reason when it is not built), the
command line for parity checks, and small datasets."""
import os
import subprocess

import pytest

try:
    import ncpbench  # noqa: F401
    _IMPORT_ERROR = None
except ImportError as e:  # the module is optional (pybind11 not found at build time)
    _IMPORT_ERROR = str(e)


# Without the module only test_module.py is collected: it skips and says why.
collect_ignore_glob = [] if _IMPORT_ERROR is None else ["test_[!m]*.py"]
NOT_BUILT = f"ncpbench module not built ({_IMPORT_ERROR}); install pybind11-dev and rebuild"


SOURCE_DIR = os.environ.get("NCPBENCH_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
FCLIB = os.path.join(SOURCE_DIR, "datasets", "fclib", "CubeH8.hdf5")


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("NCPBENCH_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("NCPBENCH_CLI (the ncpbench executable) not set: run through ctest")
    return path


def run_cli(cli, *args):
    """(exit code, stdout, stderr) of `ncpbench args...`."""
    p = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture(scope="session")
def manufactured(tmp_path_factory):
    """Two manufactured problems with every constraint type, written as a dataset."""
    import ncpbench
    path = str(tmp_path_factory.mktemp("data") / "m.h5")
    ps = ncpbench.generate("random", 2, seed=7, params={"contacts": 12, "bodies": 24})
    ncpbench.write_dataset(path, ps)
    return path
