"""Peer solvers that can end their process (ODE's Dantzig LCP asserts on a zero pivot, Siconos
segfaults on some problems) run from Python as from the command line: in a process of their own,
so that the interpreter survives and the job is a `failed` row. Without the executable that runs
them they are refused, never run in the interpreter."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import scipy.sparse as sp

import ncpbench

PEER = "ode:dantzig"


def _pivotless_problem():
    # Rows scaled 1e-12 and 1e12 on 12 dofs: ODE's LDLᵀ meets an exact zero pivot and asserts.
    rng = np.random.default_rng(2)  # one whose factorization meets the zero pivot
    j = rng.standard_normal((30, 12))
    j[:15] *= 1e-12
    j[15:] *= 1e12
    e = np.zeros(30)
    e[0::3] = -0.1
    return ncpbench.Problem(name="pivotless", A=sp.identity(12, format="csc") * 2.0,
                            b=rng.standard_normal(12), J=sp.csc_matrix(j), e=e,
                            types=np.zeros(10, dtype=np.int32), mu=np.full(10, 0.5))


def _needs_peer():
    if PEER not in [s["name"] for s in ncpbench.solvers()]:
        pytest.skip(f"{PEER} not built (libdart-external-odelcpsolver-dev)")


SCRIPT = f"""
import sys
sys.path.insert(0, {os.path.dirname(os.path.dirname(ncpbench.__file__))!r})
sys.path.insert(0, {os.path.dirname(__file__)!r})
import ncpbench, test_isolated_peers as t
r = ncpbench.solve(t._pivotless_problem(), {PEER!r}, iters=20)
print("alive", r.status, r.message)
"""


def test_a_peer_that_aborts_is_a_failed_result_not_a_dead_interpreter():
    _needs_peer()
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "alive failed the solver ended its process (signal 6, Aborted" in out.stdout, out.stdout


def test_without_the_executable_an_isolated_peer_is_refused():
    _needs_peer()
    env = dict(os.environ, NCPBENCH_CLI="/nonexistent/ncpbench")
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 1, out.stdout
    assert (f"ncpbench._ncpbench.Error: solver '{PEER}': runs in a process of its own (a peer "
            "library that can end its process), and the ncpbench executable that runs it is "
            "not at /nonexistent/ncpbench (set NCPBENCH_CLI to its path)") in out.stderr, out.stderr


def test_an_isolated_peer_solves_as_it_does_in_process():
    _needs_peer()
    p = ncpbench.generate("random", 1, seed=3, params={"contacts": 6, "bodies": 8})[0]
    r = ncpbench.solve(p, PEER, iters=50)
    assert r.status in ("converged", "max-iterations", "stopped"), r.message
    # The job's solution comes back from its process: the multipliers the row was scored on.
    assert len(r.lam) == p.num_rows
    assert np.all(np.isfinite(r.lam))
    assert ncpbench.evaluate(p, r.v, r.lam)["res004"] == pytest.approx(r.metrics["res004"], rel=1e-12)


def test_ctrl_c_during_an_isolated_job_is_a_keyboard_interrupt(tmp_path):
    # The wait for the job's process polled nothing: Ctrl-C came when the job ended, and a
    # Ctrl-C that reached the job's process too was a `failed` row that a resume took as done.
    plugin = os.path.join(os.path.dirname(os.environ.get("NCPBENCH_CLI", "")),
                          "ncpbench_test_ending_peer.so")
    if not os.path.exists(plugin):
        pytest.skip("the test plug-in is built with the C++ tests (ctest)")
    data = str(tmp_path / "d.h5")
    ncpbench.write_dataset(data, ncpbench.generate("random", 1, params={"contacts": 4,
                                                                      "bodies": 20}))
    script = f"""
import sys, time
sys.path.insert(0, {os.path.dirname(os.path.dirname(ncpbench.__file__))!r})
import ncpbench
ncpbench.load_plugin({plugin!r})
print("started", flush=True)
t = time.time()
try:
    ncpbench.run([{data!r}], solvers=["test-sleeping-peer"], iters=400, out={str(tmp_path / "r.h5")!r})
    print("finished")
except KeyboardInterrupt:
    print("interrupted after %.1f s" % (time.time() - t))
"""
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.5)  # the job (400 x 50 ms) is running in its own process
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert out.startswith("interrupted after "), out
    assert float(out.split()[2]) < 10, out
    assert not os.path.exists(tmp_path / "r.h5")
