#!/usr/bin/python3
"""A projected-Jacobi solver in numpy, run and scored by the harness next to the built-ins.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/numpy_pj.py [--iters 300]

It iterates on the same dual form as the built-in `pj` (problem.dual(): W = J A⁻¹ Jᵀ,
q = J A⁻¹ b + e) with the same updates, so it reaches the same final res004; the printout
compares it with pgs, pj and siconos:nsgs (when built) and reports its timed overhead per
iteration (Python calls, the GIL, numpy temporaries) against the C++ `pj`.
"""
import argparse

import numpy as np

import ncpbench


class NumpyPJ:
    """λ ← Π(λ − ω D⁻¹ (W λ + q)): normal rows clamped at 0, tangents to the disk μ λ_n."""
    name = "numpy-pj"
    settings = {"omega": 0.3}

    def setup(self, problem, settings):
        d = problem.dual()
        self.dual, self.W, self.q, self.diag = d, d.W, d.q, d.diag
        self.omega = settings["omega"]
        t, rows = problem.types, problem.rows
        self.n, self.mu = rows[t == 0], problem.mu[t == 0]   # contacts: rows n, n+1, n+2
        self.s, self.uni = rows[t != 0], t[t != 0] == 1       # scalar rows (soft rows folded in W)
        W11, W12, W22 = (np.asarray(self.W[self.n + i, self.n + j]).ravel()
                         for i, j in ((1, 1), (1, 2), (2, 2)))
        lmax = 0.5 * (W11 + W22) + np.sqrt(0.25 * (W11 - W22) * (W11 - W22) + W12 * W12)
        self.h = np.where(lmax > 0, 1.0 / np.where(lmax > 0, lmax, 1.0), 0.0)
        self.lam = np.zeros(len(self.q))

    def iterate(self):
        lam, w, n, s, dg = self.lam, self.omega, self.n, self.s, self.diag
        u = self.q + self.W @ lam
        ln = np.where(dg[n] > 0, lam[n] - w * u[n] / dg[n], lam[n])
        lam[n] = np.where(ln > 0, ln, 0.0)
        t1, t2 = lam[n + 1] - w * self.h * u[n + 1], lam[n + 2] - w * self.h * u[n + 2]
        tn, r = np.sqrt(t1 * t1 + t2 * t2), self.mu * lam[n]
        k = np.where(tn > r, r / np.where(tn > 0, tn, 1.0), 1.0)
        lam[n + 1], lam[n + 2] = k * t1, k * t2
        ls = np.where(dg[s] > 0, lam[s] - w * u[s] / dg[s], lam[s])
        lam[s] = np.where(self.uni & ~(ls > 0), 0.0, ls)
        return None if np.all(np.abs(lam) < 1e100) else "diverged"

    def current(self):
        return self.dual.velocity(self.lam), self.lam.copy()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--contacts", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--all-types", action="store_true",
                    help="unilateral and bilateral rows too (siconos:nsgs is then not applicable)")
    a = ap.parse_args()
    ap_params = {"contacts": a.contacts, "bodies": 2 * a.contacts, "mass_ratio": 100}
    if not a.all_types:  # Siconos' fc3d has no unilateral or bilateral rows
        ap_params.update(unilateral=0, bilateral=0)
    p = ncpbench.generate("random", 1, seed=a.seed, params=ap_params)[0]
    names = ["pgs", "pj"] + [s["name"] for s in ncpbench.solvers() if s["name"] == "siconos:nsgs"]
    results = {n: ncpbench.solve(p, n, iters=a.iters, threads=1) for n in names}
    results["numpy-pj"] = ncpbench.solve(p, NumpyPJ(), iters=a.iters, threads=1)
    print(f"{p.name}: {p.num_dofs} dofs, {p.num_rows} rows, {a.iters} iterations")
    print(f"{'solver':14} {'status':15} {'res004':>10} {'natmap':>10} {'solve ms':>9} {'us/it':>8}")
    for n, r in results.items():
        per_it = r.solve_time / r.iterations * 1e6 if r.iterations > 0 else float("nan")
        print(f"{n:14} {r.status:15} {r.metrics['res004']:10.3e} {r.metrics['natmap']:10.3e} "
              f"{r.solve_time * 1e3:9.2f} {per_it:8.1f}")
    py, pj = results["numpy-pj"], results["pj"]
    print(f"|res004(numpy-pj) - res004(pj)| = {abs(py.metrics['res004'] - pj.metrics['res004']):.3e}")
    print(f"timed overhead per iteration: {(py.solve_time - pj.solve_time) / a.iters * 1e6:.1f} us "
          f"({py.solve_time / pj.solve_time:.1f}x pj)")


if __name__ == "__main__":
    main()
