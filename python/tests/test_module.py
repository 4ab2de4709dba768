"""The module imports from the build folder (PYTHONPATH=<build>/python), or every test skips."""
import pytest

from conftest import _IMPORT_ERROR, NOT_BUILT


def test_module_is_importable():
    if _IMPORT_ERROR is not None:
        pytest.skip(NOT_BUILT)
    import ncpbench
    assert {"pgs", "pj"} <= {s["name"] for s in ncpbench.solvers()}
    assert ncpbench.metrics()[0] == "res004"
    assert issubclass(ncpbench.Error, ValueError)
