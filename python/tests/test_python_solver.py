"""Python solvers under the harness: statuses, errors, settings, timing, the numpy PJ example."""
import os
import sys
import time

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
from numpy_pj import NumpyPJ  # noqa: E402


def problem(seed=11, **params):
    import ncpbench
    return ncpbench.generate("random", 1, seed=seed,
                             params={"contacts": 20, "bodies": 40, **params})[0]


def test_numpy_pj_reaches_the_builtin_pj_residual(capsys):
    import ncpbench
    p = problem(mass_ratio=100)
    iters = 200
    pj = ncpbench.solve(p, "pj", iters=iters, threads=1)
    py = ncpbench.solve(p, NumpyPJ, iters=iters, threads=1)
    assert py.status == pj.status == "max-iterations"
    assert abs(py.metrics["res004"] - pj.metrics["res004"]) <= 1e-10
    assert py.metrics["res004"] < 1e-2
    overhead = (py.solve_time - pj.solve_time) / iters
    with capsys.disabled():
        print(f"\nnumpy-pj vs pj on {p.name} ({p.num_rows} rows): res004 {py.metrics['res004']:.3e}"
              f" vs {pj.metrics['res004']:.3e}; timed overhead {overhead * 1e6:.1f} us/iteration "
              f"({py.solve_time / iters * 1e6:.1f} vs {pj.solve_time / iters * 1e6:.1f})")


class Counting:
    """Counts calls; sleeps in current() to show that it is not timed."""
    name = "counting"
    settings = {"k": 2.0}

    def setup(self, problem, settings):
        self.k, self.m, self.calls = settings["k"], problem.num_rows, 0

    def iterate(self):
        self.calls += 1

    def current(self):
        time.sleep(0.01)
        return None, np.zeros(self.m)

    def info(self):
        return {"calls": self.calls}


def test_python_solver_is_timed_without_current_and_gets_settings():
    import ncpbench
    p = problem()
    s = Counting()
    r = ncpbench.solve(p, s, iters=30, trace=1, settings={"k": 3})
    assert s.k == 3.0 and s.calls == 30 and r.info == "calls=30"
    assert r.settings == "k=3"
    assert r.solve_time < 0.15  # 31 sleeping current() calls (310 ms) are outside the timing
    assert np.isnan(r.metrics["dyn"]) and np.isfinite(r.metrics["res004"])
    # Without a v the dynamics residuals are not computed, which is no divergence.
    assert r.status == "max-iterations", r.message


def test_a_python_solver_claiming_convergence_is_checked_by_the_harness():
    """Only the harness declares convergence: "converged" from iterate() ends the run, and the
    run's tolerance is tested on the final iterate (here v = 0, λ = 0: res004 far above 1e-6)."""
    import ncpbench
    p = problem()

    class ClaimsConvergence(Counting):
        def setup(self, problem, settings):
            self.n, self.m, self.calls = problem.num_dofs, problem.num_rows, 0

        def iterate(self):
            self.calls += 1
            return "converged"

        def current(self):
            return np.zeros(self.n), np.zeros(self.m)

    r = ncpbench.solve(p, ClaimsConvergence(), iters=50, tol=1e-6)
    assert r.metrics["res004"] > 1e-1
    assert r.status == "stopped" and r.iterations == 1
    assert "above the run's tolerance" in r.message
    # At a tolerance the final iterate meets, the same claim is a converged run.
    loose = ncpbench.solve(p, ClaimsConvergence(), iters=50, tol=10 * r.metrics["res004"])
    assert loose.status == "converged"


def test_python_errors_and_statuses_become_job_statuses():
    import ncpbench
    p = problem()

    class Raises(Counting):
        def iterate(self):
            raise RuntimeError("boom at iteration 1")

    class NotApplicable(Counting):
        message = "needs a local problem"

        def setup(self, problem, settings):
            return "not-applicable"

    class Diverges(Counting):
        def iterate(self):
            return "diverged"

    class RaisesInCurrent(Counting):
        def current(self):
            raise ValueError("no iterate to show")

    r = ncpbench.solve(p, Raises(), iters=5)
    assert r.status == "failed" and "RuntimeError: boom at iteration 1" in r.message
    # An exception in current() fails that job (with or without a trace), not the whole call.
    for trace in (0, 1):
        r = ncpbench.solve(p, RaisesInCurrent(), iters=5, trace=trace)
        assert r.status == "failed" and "ValueError: no iterate to show" in r.message
    r = ncpbench.solve(p, NotApplicable(), iters=5)
    assert r.status == "not-applicable" and r.message == "needs a local problem"
    assert ncpbench.solve(p, Diverges(), iters=5).status == "diverged"
    with pytest.raises(ncpbench.Error, match=r"counting.zz: unknown setting \(known: k\)"):
        ncpbench.solve(p, Counting(), settings={"zz": 1})
    with pytest.raises(ncpbench.Error, match="solver 'pgs': already registered"):
        ncpbench.run([], solvers=[type("Pgs", (Counting,), {"name": "pgs"})()], out="unused.h5")


def test_gil_is_released_while_cpp_runs():
    import threading

    import ncpbench
    p = problem(seed=12, contacts=60, bodies=120)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    t0 = time.perf_counter()
    ncpbench.solve(p, "pgs", iters=4000, threads=1)
    elapsed = time.perf_counter() - t0
    stop.set()
    t.join()
    # A held GIL would starve the ticking thread for the whole solve.
    assert elapsed < 0.05 or len(ticks) >= 0.2 * elapsed / 0.001


def test_ctrl_c_between_jobs_leaves_a_resumable_output(tmp_path):
    """SIGINT while run() works raises KeyboardInterrupt before the next job (not after every
    job); the finished jobs are kept and the same call then finishes the file."""
    import signal
    import threading
    import ncpbench

    class Slow(Counting):  # 20 iterations of 5 ms: 0.1 s a job, 2 s for the 20 jobs
        name = "slow"

        def iterate(self):
            time.sleep(0.005)

    data = str(tmp_path / "d.h5")
    ncpbench.write_dataset(data, ncpbench.generate("random", 20, seed=5,
                                                   params={"contacts": 4, "bodies": 8}))
    out = str(tmp_path / "r.h5")
    kwargs = dict(solvers=[Slow()], iters=20, out=out, quiet=True, threads=1)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        ncpbench.run([data], **kwargs)
    timer.join()
    assert not os.path.exists(out)  # stopped before the last job, not after it
    assert 0 < len(os.listdir(out + ".parts")) < 20
    ncpbench.run([data], **kwargs)
    assert len(ncpbench.read_results(out)) == 20
