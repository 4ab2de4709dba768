"""The examples of examples/python run as documented."""
import os
import subprocess
import sys

from conftest import FCLIB, SOURCE_DIR

EXAMPLES = os.path.join(SOURCE_DIR, "examples", "python")


def run(script, *args):
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args],
                       capture_output=True, text=True, env=os.environ.copy())
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_compare_fclib():
    out = run("compare_fclib.py", FCLIB, "--iters", "50")
    assert all(s in out for s in ("pgs", "apgd", "admm-full", "CubeH8"))


def test_numpy_pj_example():
    out = run("numpy_pj.py", "--iters", "100", "--contacts", "15")
    assert "|res004(numpy-pj) - res004(pj)| = 0.000e+00" in out
    assert "timed overhead per iteration" in out


def test_plot_trace(tmp_path):
    png = tmp_path / "trace.png"
    run("plot_trace.py", FCLIB, "-o", str(png), "--iters", "50")
    assert png.stat().st_size > 1000
