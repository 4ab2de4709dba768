"""The Python API under misuse a user would commit: problems whose sizes disagree, arrays of the
wrong kind, solvers that keep what they were given, settings given twice. Each is an
ncpbench.Error naming the field (or, for a kept problem, simply works), never a crash of the
interpreter: the risky calls run in a subprocess, whose death by a signal fails the test."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp

import ncpbench

HEADER = textwrap.dedent("""
    import gc, sys
    import numpy as np, scipy.sparse as sp
    import ncpbench
    g = ncpbench.generate("random", 1, seed=4, params={"contacts": 6, "bodies": 8})[0]
    def mk(**kw):
        f = dict(A=g.A, b=g.b, J=g.J, e=g.e, types=g.types, mu=g.mu, stiffness=g.stiffness,
                 damping=g.damping)
        f.update(kw)
        return ncpbench.Problem(**f)
    def refused(call, needle):
        try:
            call()
        except ncpbench.Error as e:
            assert needle in str(e), str(e)
            return
        raise AssertionError("accepted")
""")


def run_script(body, timeout=120, interrupt_after=None):
    """Runs HEADER + body in a fresh interpreter; returns (returncode, stdout + stderr)."""
    p = subprocess.Popen([sys.executable, "-c", HEADER + textwrap.dedent(body)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=dict(os.environ))
    if interrupt_after is not None:
        try:
            p.wait(timeout=interrupt_after)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        return None, out
    return p.returncode, out


def ok(body, **kw):
    rc, out = run_script(body, **kw)
    assert rc == 0, f"exit {rc}:\n{out}"
    return out


def test_problems_whose_sizes_disagree_are_refused_where_they_are_used():
    # e short, J with extra columns, a local problem without q: each was read out of bounds
    # (SIGSEGV / SIGABRT) by solve, evaluate, Evaluator and dual.
    ok("""
        bad = [(mk(e=g.e[:-3]), "e: wrong size"),
               (mk(J=sp.hstack([g.J, sp.csc_matrix((g.J.shape[0], 2))]).tocsc()), "J columns"),
               (ncpbench.Problem(W=np.eye(3), types=[0], mu=[.5]), "q: wrong size"),
               (ncpbench.Problem(W=np.eye(3), q=np.zeros(3), types=[0, 0], mu=[.5, .5]),
                "rows")]
        for p, needle in bad:
            z = lambda n: np.zeros(n)
            refused(lambda: ncpbench.solve(p, "pgs", iters=5), needle)
            refused(lambda: ncpbench.evaluate(p, None if p.form == "local" else z(p.num_dofs),
                                              z(p.num_rows)), needle)
            refused(lambda: ncpbench.Evaluator(p), needle)
            refused(lambda: p.dual(), needle)
        refused(lambda: ncpbench.Problem(W=np.ones((3, 2)), q=np.zeros(3), types=[0],
                                         mu=[.5]).dual(), "W: must be square, got 3x2")
    """)


def test_arrays_of_the_wrong_kind_are_refused():
    ok("""
        refused(lambda: g.dual().velocity(np.ones(2)), "lambda: wrong length")
        refused(lambda: g.dual().velocity(np.full(g.num_rows, np.nan)), "must be finite")
        refused(lambda: ncpbench.evaluate(g, np.full(g.num_dofs, np.nan), np.zeros(g.num_rows)),
                "v[0] = nan: must be finite")
        refused(lambda: mk(A=g.A + 1j * g.A), "A: complex values")
        refused(lambda: mk(b=g.b + 1j), "b: complex values")
        big = sp.coo_matrix(([1.0], ([2**32 + 1], [0])), shape=(2**32 + 38, g.num_dofs))
        refused(lambda: mk(J=big), "J: shape 4294967334x")
        # One entry in a huge declared shape: its index arrays (8 GB) were allocated before
        # any size was compared.
        huge = sp.coo_matrix(([1.0], ([0], [0])), shape=(g.num_rows, 2**31 - 1))
        refused(lambda: mk(J=huge), "beyond 64 x the problem's vector lengths")
        refused(lambda: ncpbench.Problem(W=sp.coo_matrix(([1.0], ([0], [0])), shape=(10**8, 10**8)),
                                         q=np.zeros(3), types=[0], mu=[.5]),
                "W: shape 100000000x100000000")
        refused(lambda: ncpbench.write_dataset("x.h5", [g, None]), "problems[1] is None")
        refused(lambda: ncpbench.generate("random", 10**7), "n = 10000000: must be in [1, 100000]")
    """)


def test_a_python_solver_may_keep_its_problem_after_the_run(tmp_path):
    # setup() got a handle the run's loaded problems outlived only until run() returned.
    ds = tmp_path / "d.h5"
    ncpbench.write_dataset(str(ds), ncpbench.generate("random", 1, seed=2))
    out = ok(f"""
        class KeepsProblem:
            name = "keeps"
            def setup(self, problem, settings):
                self.problem = problem
                self.v, self.lam = np.zeros(problem.num_dofs), np.zeros(problem.num_rows)
            def iterate(self): return None
            def current(self): return self.v, self.lam
        k = KeepsProblem()
        ncpbench.run([{str(ds)!r}], solvers=[k], iters=2, out={str(tmp_path / 'r.h5')!r})
        gc.collect()
        print(repr(k.problem), float(np.abs(k.problem.b).sum()) > 0)
    """)
    assert "<ncpbench.Problem" in out and "True" in out


def test_python_solver_outputs_and_settings_are_checked():
    ok("""
        class Short:
            name = "short"
            def setup(self, problem, settings): self.n, self.m = problem.num_dofs, problem.num_rows
            def iterate(self): return None
            def current(self): return np.zeros(self.n), np.zeros(self.m - 1)
        r = ncpbench.solve(g, Short(), iters=2)
        assert r.status == "failed", r.status
        assert "current()[1] (lambda): wrong length" in r.message, r.message
        class NanDefault(Short):
            name = "nan-default"
            settings = {"omega": float("nan")}
        refused(lambda: ncpbench.solve(g, NanDefault(), iters=1), "must be a finite number")
        class BadKey(Short):
            name = "bad-key"
            settings = {"a=b": 1.0}
        refused(lambda: ncpbench.solve(g, BadKey(), iters=1), "letters, digits")
        refused(lambda: ncpbench.solve(g, "pgs", iters=1, settings={"pgs.omega": .5, "omega": 1.5}),
                "given twice")
        refused(lambda: ncpbench.run([], solvers=[Short(), Short()], out="r.h5"),
                "--solvers short: given twice")
    """)


def test_ctrl_c_ends_a_long_builtin_solve():
    # Checked between jobs only, a 10^8-iteration job ignored Ctrl-C.
    rc, out = run_script("""
        p = ncpbench.generate("random", 1, params={"contacts": 300, "bodies": 600})[0]
        print("started", flush=True)
        try:
            ncpbench.solve(p, "pgs", iters=10**8)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
        sys.exit(3)
    """, timeout=60, interrupt_after=3)
    assert rc == 0 and "interrupted" in out, f"exit {rc}:\n{out}"


def test_files_read_and_written_from_several_threads(tmp_path):
    # The forked reader of one thread inherited another thread's half-done HDF5 state: valid
    # files were refused as "stalled" after 30 s, and the process aborted at exit.
    ds = str(tmp_path / "d.h5")
    ncpbench.write_dataset(ds, ncpbench.generate("random", 2, seed=3))
    ok(f"""
        import threading
        errors = []
        def work(i):
            try:
                for _ in range(3):
                    assert len(ncpbench.load({ds!r})) == 2
                    ncpbench.write_dataset({str(tmp_path)!r} + f"/w{{i}}.h5", [g])
            except Exception as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        assert not errors, errors
    """, timeout=100)


def test_problem_fields_of_the_wrong_kind():
    ok("""
        refused(lambda: mk(reference=5), "reference = 5: must be a (v, lambda) pair")
        refused(lambda: mk(name="a\\x00b"), "name: holds a NUL character")
    """)
