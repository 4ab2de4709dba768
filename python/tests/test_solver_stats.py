"""The solvers' own statistics in the trace dict: stat_* arrays where the solver reports them."""
import numpy as np

from conftest import FCLIB


def test_trace_has_the_stats_the_solver_reports():
    import ncpbench
    (p,) = ncpbench.load(FCLIB)
    r = ncpbench.solve(p, "admm-full", iters=30, trace=10)
    t = r.trace
    assert list(t["iteration"]) == [0, 10, 20, 30]
    assert t["stat_refactorizations"].dtype.kind == "i"
    assert np.all(np.diff(t["stat_refactorizations"]) >= 0) and t["stat_refactorizations"][0] >= 1
    assert np.all(t["stat_penalty"] > 0)
    assert np.isnan(t["stat_primal_residual"][0]) and np.all(np.isfinite(t["stat_primal_residual"][1:]))
    assert "stat_inner_iterations" not in t and "stat_line_search_steps" not in t
    pgs = ncpbench.solve(p, "pgs", iters=10, trace=5).trace
    assert not [k for k in pgs if k.startswith("stat_")]
