"""Load -> arrays -> solve -> evaluate, and problems written from Python arrays."""
import numpy as np
import pytest
import scipy.sparse as sp

from conftest import FCLIB


def test_fclib_load_solve_evaluate():
    import ncpbench
    (p,) = ncpbench.load(FCLIB)
    assert p.form == "global" and p.A.shape == (p.num_dofs, p.num_dofs)
    assert sp.issparse(p.A) and p.J.shape == (p.num_rows, p.num_dofs)
    assert p.b.shape == (p.num_dofs,) and p.e.shape == (p.num_rows,)
    assert list(p.types) == [0] * p.num_constraints and np.all(p.mu >= 0)
    r = ncpbench.solve(p, "pgs", iters=100, trace=10)
    assert r.status == "max-iterations" and r.iterations == 100
    assert r.setup_time > 0 and r.solve_time > 0
    assert list(r.trace["iteration"]) == list(range(0, 101, 10))
    assert r.trace["res004"][-1] == r.metrics["res004"]
    m = ncpbench.evaluate(p, r.v, r.lam)
    assert m == pytest.approx(r.metrics, nan_ok=True, rel=0, abs=0)
    assert m["res004"] < 1e-8


def test_arrays_are_shared_read_only_views():
    import ncpbench
    (p,) = ncpbench.load(FCLIB)
    b1, b2 = p.b, p.b
    assert np.shares_memory(b1, b2) and not b1.flags.writeable
    assert np.shares_memory(p.A.data, p.A.data)
    with pytest.raises(ValueError):
        b1[0] = 1.0


def test_dataset_written_from_arrays_reads_back_bitwise(tmp_path):
    import ncpbench
    (g,) = ncpbench.generate("random", 1, seed=3, params={"contacts": 8, "bodies": 16})
    ref = g.reference
    p = ncpbench.Problem(A=g.A.toarray(), b=g.b, J=g.J, e=g.e, types=g.types, mu=g.mu,
                         stiffness=g.stiffness, damping=g.damping, name="mine",
                         reference=(ref["v"], ref["lambda"]))
    assert p.validate() == ""
    path = str(tmp_path / "mine.h5")
    ncpbench.write_dataset(path, [p], attrs={"note": "from numpy"})
    (q,) = ncpbench.load(path)
    assert q.name == "mine"
    for f in ("b", "e", "mu", "types", "rows", "stiffness", "damping"):
        np.testing.assert_array_equal(getattr(q, f), getattr(g, f))
    assert (q.A != g.A).nnz == 0 and (q.J != g.J).nnz == 0
    np.testing.assert_array_equal(q.reference["lambda"], ref["lambda"])
    # The exact solution of a manufactured problem scores (almost) zero.
    assert ncpbench.evaluate(q, ref["v"], ref["lambda"])["res004"] < 1e-10


def test_local_problem_from_arrays():
    import ncpbench
    W = np.array([[2.0, 0.1, 0.0], [0.1, 1.0, 0.0], [0.0, 0.0, 1.0]])
    p = ncpbench.Problem(W=W, q=np.array([-1.0, 0.5, 0.0]), types=[0], mu=[0.5])
    assert p.form == "local" and p.validate() == ""
    r = ncpbench.solve(p, "pgs", iters=200)
    assert r.metrics["natmap"] < 1e-10 and r.v.size == 0
    assert np.isnan(r.metrics["dyn"])  # needs A: not applicable to a local problem


def test_structure_and_dual_form():
    import ncpbench
    (p,) = ncpbench.generate("random", 1, seed=4, params={"contacts": 6, "bodies": 12})
    s = p.structure
    assert s is not None and len(s["bodies"]) == 12 and s["blocks"]
    d = p.dual()
    lam = p.reference["lambda"]
    np.testing.assert_allclose(d.velocity(lam), p.reference["v"], rtol=1e-8, atol=1e-10)
    assert d.W.shape == (p.num_rows, p.num_rows) and d.q.shape == (p.num_rows,)


def test_joint_friction_problems_from_python():
    """Type 4 (joint friction) goes through generate, Problem and solve; solvers without it say so."""
    import ncpbench
    (g,) = ncpbench.generate("joint_friction", 1, seed=5, params={"bodies": 4, "frac_stick": 0})
    assert set(g.types) == {4} and np.all(np.diff(g.rows) == 2)
    r = ncpbench.solve(g, "bisp", iters=100, tol=1e-10)
    assert r.status == "converged" and r.metrics["res004"] <= 1e-10
    np.testing.assert_allclose(r.v, g.reference["v"], rtol=0, atol=1e-8 * np.abs(g.reference["v"]).max())
    refused = ncpbench.solve(g, "admm-full", iters=10)
    assert refused.status == "not-applicable" and "bisp" in refused.message
    # Without the structure layer bisp cannot find the bodies: not applicable, with the reason.
    bare = ncpbench.Problem(A=g.A.toarray(), b=g.b, J=g.J, e=g.e, types=g.types, mu=g.mu,
                            stiffness=g.stiffness, damping=g.damping, name="bare")
    assert bare.validate() == ""
    r2 = ncpbench.solve(bare, "bisp", iters=10)
    assert r2.status == "not-applicable" and "structure" in r2.message
    # A negative friction coefficient on a joint-friction row is refused.
    mu = np.array(g.mu)
    mu[0] = -0.1
    bad = ncpbench.Problem(A=g.A.toarray(), b=g.b, J=g.J, e=g.e, types=g.types, mu=mu,
                           stiffness=g.stiffness, damping=g.damping, name="bad")
    assert "mu" in bad.validate()


def test_wrong_lengths_and_shapes_are_errors():
    """evaluate() and solve(warm=) check lengths: an error naming the field, not NaN metrics
    or a warm start silently ignored."""
    import ncpbench
    (p,) = ncpbench.generate("random", 1, seed=4, params={"contacts": 6, "bodies": 8})
    v, lam = np.zeros(p.num_dofs), np.zeros(p.num_rows)
    assert np.isfinite(ncpbench.evaluate(p, v, lam)["res004"])
    with pytest.raises(ncpbench.Error, match=r"lambda: wrong length: expected %d, got %d"
                       % (p.num_rows, p.num_rows - 1)):
        ncpbench.evaluate(p, v, lam[:-1])
    with pytest.raises(ncpbench.Error, match=r"v: wrong length"):
        ncpbench.Evaluator(p).evaluate(np.zeros(p.num_dofs + 2), lam)
    with pytest.raises(ncpbench.Error, match=r"warm\[1\] \(lambda\): wrong length"):
        ncpbench.solve(p, "pgs", iters=2, warm=(v, lam[:2]))
    with pytest.raises(ncpbench.Error, match=r"warm = .*: must be 'reference', a \(v, lam\) pair"):
        ncpbench.solve(p, "pgs", iters=2, warm=(v, lam, lam))
    r = ncpbench.solve(p, "pgs", iters=1, warm=(p.reference["v"], p.reference["lambda"]))
    assert r.metrics["res004"] < 1e-9  # the warm start was used
