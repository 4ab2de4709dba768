"""Python and the command line agree: metrics bitwise, results rows, bad-input messages."""
import math
import os
import sys

import h5py
import numpy as np
import pytest

from conftest import run_cli

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
from numpy_pj import NumpyPJ  # noqa: E402


def rows(path):
    with h5py.File(path, "r") as f:
        runs = {k: f["runs"][k][()] for k in f["runs"]}
        traces = {int(k): {c: f["traces"][k][c][()] for c in f["traces"][k]} for k in f["traces"]}
    for k, v in runs.items():
        if v.dtype.kind in "SO":
            runs[k] = np.array([x.decode() for x in v], dtype=object)
    return runs, traces


def same_bits(a, b):
    return (math.isnan(a) and math.isnan(b)) or np.float64(a).tobytes() == np.float64(b).tobytes()


def test_evaluator_equals_cli_final_metrics_bitwise(cli, manufactured, tmp_path):
    import ncpbench
    out = tmp_path / "cli.h5"
    rc, _, err = run_cli(cli, "run", manufactured, "-s", "pgs,apgd", "--iters", 40, "--threads",
                         1, "-q", "-o", out)
    assert rc == 0, err
    runs, _ = rows(out)
    problems = {p.name: p for p in ncpbench.load(manufactured)}
    checked = 0
    for i, name in enumerate(runs["problem"]):
        p, solver = problems[name], runs["solver"][i]
        r = ncpbench.solve(p, solver, iters=40, threads=1)  # the same job: the same (v, λ)
        m = ncpbench.evaluate(p, r.v, r.lam)
        for metric in ncpbench.metrics():
            assert same_bits(m[metric], runs["final_" + metric][i]), (name, solver, metric)
            assert same_bits(r.metrics[metric], runs["final_" + metric][i])
        checked += 1
    assert checked == 4


def test_python_solver_rows_share_the_results_file(manufactured, tmp_path):
    import ncpbench
    out = str(tmp_path / "mixed.h5")
    assert ncpbench.run([manufactured], solvers=["pgs", "pj", NumpyPJ()], iters=50, trace=10,
                        threads=1, out=out, settings={"numpy-pj.omega": 0.3}) == out
    runs, traces = rows(out)
    solvers = list(runs["solver"])
    assert solvers.count("numpy-pj") == 2 and solvers.count("pgs") == 2
    for i, s in enumerate(solvers):
        assert runs["status"][i] == "max-iterations" and runs["iterations"][i] == 50
        assert runs["setup_time_s"][i] > 0 and runs["solve_time_s"][i] > 0
        assert np.isfinite(runs["final_res004"][i]) and runs["lambda_err"][i] >= 0
        assert list(traces[i]["iteration"]) == [0, 10, 20, 30, 40, 50]
        assert runs["settings"][i] == "omega=0.3" or s == "pgs"
    # The same problem descriptors on every row of a problem, whoever solved it.
    for col in ("num_dofs", "num_rows", "w_rank", "mass_ratio"):
        for name in set(runs["problem"]):
            vals = {runs[col][i] for i in range(len(solvers)) if runs["problem"][i] == name}
            assert len(vals) == 1, col
    # Same updates as the built-in pj: the same final residual.
    for name in set(runs["problem"]):
        res = {runs["solver"][i]: runs["final_res004"][i] for i in range(len(solvers))
               if runs["problem"][i] == name}
        assert abs(res["numpy-pj"] - res["pj"]) <= 1e-10


@pytest.mark.parametrize("cli_args, py_kwargs", [
    (["-s", "pgs", "--set", "pgs.omega=2.5"], {"solvers": ["pgs"], "settings": {"pgs.omega": 2.5}}),
    (["-s", "nope"], {"solvers": ["nope"]}),
    (["-s", "pgs", "--iters", "0"], {"solvers": ["pgs"], "iters": 0}),
    (["-s", "pgs", "--set", "apgd.eta=1"], {"solvers": ["pgs"], "settings": {"apgd.eta": 1}}),
    (["-s", "pgs", "--tol-metric", "fb_aa"], {"solvers": ["pgs"], "tol_metric": "fb_aa"}),
    (["-s", "pgs", "--step-tol", "-1"], {"solvers": ["pgs"], "step_tol": -1}),
])
def test_bad_options_raise_the_cli_message(cli, manufactured, tmp_path, cli_args, py_kwargs):
    import ncpbench
    rc, _, err = run_cli(cli, "run", manufactured, *cli_args, "-o", tmp_path / "x.h5")
    assert rc == 2 and err.startswith("ncpbench: error: ")
    with pytest.raises(ncpbench.Error) as e:
        ncpbench.run([manufactured], out=str(tmp_path / "y.h5"), **py_kwargs)
    assert str(e.value) == err.strip()[len("ncpbench: error: "):]
    assert "\n" not in str(e.value)


def test_invalid_problem_raises_the_cli_message(cli, tmp_path):
    import ncpbench
    (g,) = ncpbench.generate("random", 1, seed=9, params={"contacts": 4, "bodies": 8})
    mu = g.mu.copy()
    mu[1] = -0.5  # constraint 1 is a contact: μ < 0 is invalid
    bad = ncpbench.Problem(A=g.A, b=g.b, J=g.J, e=g.e, types=g.types, mu=mu,
                           stiffness=g.stiffness, damping=g.damping, name="bad")
    path = str(tmp_path / "bad.h5")
    with pytest.raises(ncpbench.Error) as written:
        ncpbench.write_dataset(path, [bad])
    ncpbench.write_dataset(path, [bad], validate=False)  # for the command line to refuse it
    rc, _, err = run_cli(cli, "run", path, "-s", "pgs", "-o", tmp_path / "r.h5")
    assert rc == 2
    cli_message = err.strip()[len("ncpbench: error: "):]
    assert str(written.value) == cli_message
    assert "constraint[1].mu = -0.5" in cli_message
    for call in (lambda: ncpbench.load(path),
                 lambda: ncpbench.run([path], solvers=["pgs"], out=str(tmp_path / "r2.h5"))):
        with pytest.raises(ncpbench.Error) as e:
            call()
        assert str(e.value) == cli_message
    assert not os.path.exists(tmp_path / "r2.h5")


def test_missing_file_raises_the_cli_message(cli, tmp_path):
    import ncpbench
    path = str(tmp_path / "missing.h5")
    rc, _, err = run_cli(cli, "run", path, "-s", "pgs", "-o", tmp_path / "r.h5")
    assert rc == 2
    with pytest.raises(ncpbench.Error) as e:
        ncpbench.run([path], solvers=["pgs"], out=str(tmp_path / "r.h5"))
    assert str(e.value) == err.strip()[len("ncpbench: error: "):]
