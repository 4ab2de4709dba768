"""The CCP reference (ncpbench.ccp.CvxoptCcp: cvxopt's conic QP, polished by projected-gradient
steps) against our CCP route, apgd with friction_model=ccp: on every sample the reference can
take (its KKT residual ‖λ − Π_K(λ − u)‖∞ ≤ 1e-10 max|λ|), the CCP objectives agree to 1e-8
relative, and where W_s is well conditioned (λ unique) the impulses agree to 1e-7 relative.
cond's proximal operator is reported, not asserted: its virtual nodes (002:14) perturb the
problem, and its fixed point misses the CCP by about 1e-2 (measured when added)."""
import os

import numpy as np
import pytest

cvxopt = pytest.importorskip("cvxopt")
sp = pytest.importorskip("scipy.sparse")

FCLIB = os.path.join(os.path.dirname(__file__), "..", "..", "datasets", "fclib")


def samples():
    import ncpbench
    out = []
    for seed in range(3):
        out.append((f"random-{seed}", ncpbench.generate(
            "random", 1, seed=seed,
            params={"contacts": 20, "bodies": 40, "unilateral": 3, "bilateral": 0, "soft": 0})[0]))
    for f in ("CubeH8", "Box_Stacks-i0035-31-0", "LMGC_100_PR_PerioBox-i00361-60-03000",
              "Rover4493", "local_problem_test"):
        out.append((f, ncpbench.load(os.path.join(FCLIB, f + ".hdf5"))[0]))
    return out


def symmetric(p):
    """A local problem with W's symmetric part: fclib's exports are not exactly symmetric (e.g.
    Rover4493, 3e-5 relative), and apgd iterates on W as stored, the reference on W_s."""
    import ncpbench
    if p.form == "global":
        return p
    W = sp.csr_matrix(p.W)
    return ncpbench.Problem(W=(0.5 * (W + W.T)).tocsc(), q=np.asarray(p.q), types=p.types,
                            mu=p.mu)


def objective(Ws, q, lam):
    return 0.5 * lam @ (Ws @ lam) + q @ lam


def test_cvxopt_reference_agrees_with_apgd_ccp(capsys):
    import ncpbench
    import ncpbench.ccp
    taken = []
    for name, p in samples():
        p = symmetric(p)
        d = p.dual()
        W = sp.csr_matrix(d.W)
        Ws = 0.5 * (W + W.T)
        q = np.asarray(d.q)
        ref = ncpbench.solve(p, ncpbench.ccp.CvxoptCcp, iters=1)
        assert ref.status == "stopped", (name, ref.message)
        info = dict(kv.split("=") for kv in ref.info.split(";"))
        scale = np.abs(ref.lam).max()
        if float(info["kkt"]) > 1e-10 * scale:
            with capsys.disabled():
                print(f"\n{name}: not taken (reference KKT {float(info['kkt']):.1e})")
            continue
        ours = ncpbench.solve(p, "apgd", settings={"friction_model": "ccp"}, iters=20000,
                              threads=1)
        f_ref, f_ours = objective(Ws, q, ref.lam), objective(Ws, q, ours.lam)
        df = abs(f_ours - f_ref) / max(abs(f_ref), 1e-300)
        dl = np.abs(ours.lam - ref.lam).max() / scale
        cond = ncpbench.solve(p, "cond", settings={"operator": "proximal"}, iters=2000,
                              threads=1)
        dc = np.abs(cond.lam - ref.lam).max() / scale
        well = np.linalg.cond(Ws.toarray()) < 1e4
        with capsys.disabled():
            print(f"\n{name}: objective {df:.1e}, lambda {dl:.1e}"
                  f"{' (W_s well conditioned)' if well else ''}; cond proximal lambda {dc:.1e}")
        taken.append(name)
        assert df <= 1e-8, name
        if well:
            assert dl <= 1e-7, name
    # The samples the reference must take (measured when added: the three random problems,
    # CubeH8 and Box_Stacks at KKT ≤ 4e-13).
    for name in ("random-0", "random-1", "random-2", "CubeH8", "Box_Stacks-i0035-31-0"):
        assert name in taken


def test_cvxopt_reference_on_a_problem_without_constraints():
    """Zero rows: nothing to solve, the reference stops at once with an empty λ (as every peer)."""
    import ncpbench
    import ncpbench.ccp
    p = ncpbench.Problem(W=np.zeros((0, 0)), q=np.zeros(0), types=[], mu=[])
    r = ncpbench.solve(p, ncpbench.ccp.CvxoptCcp, iters=1)
    assert r.status == "stopped", r.message
    assert np.asarray(r.lam).size == 0
