"""The CCP (Anitescu's convex relaxation of Coulomb friction, the model that MuJoCo and Drake solve
regularized) solved to high accuracy by cvxopt's conic QP, as a Python solver of the harness:

    min_λ ½ λᵀ W_s λ + qᵀ λ   s.t.  (μ_i λ_n,i, λ_t,i) ∈ second-order cone   for every contact,
                                     λ_r ≥ 0 for unilateral rows, other rows free,

on the dual form u = W λ + q (problem.dual(): soft rows folded in as rows with compliance, which
are free here), W_s = ½(W + Wᵀ). A contact with μ = 0 has its tangent impulses fixed at 0 (its cone
has no interior). Its optimality conditions are the CCP's: λ_i ∈ K_i, u_i + (0, ·) ∈ K_i*, with the
normal velocity u_n = μ‖u_t‖ of a sliding contact (the CCP's "gliding").

    import ncpbench, ncpbench.ccp
    r = ncpbench.solve(p, ncpbench.ccp.CvxoptCcp, iters=1)

Needs python3-cvxopt (make deps installs it). One iteration is the whole solve: the interior
point (tolerances 1e-12 on the problem scaled to max W_ii = 1) gets the KKT residual
‖λ − Π_K(λ − u)‖∞ to 1e-8..1e-9, and up to `polish` projected-gradient steps
λ ← Π_K(λ − (W_s λ + q)/L), L the largest eigenvalue of W_s (plain steps: no acceleration, no
restart; each one decreases the objective), take it the rest of the way, to `kkt_tol` × max|λ|.
"""

import numpy as np


class CvxoptCcp:
    name = "cvxopt-ccp"
    settings = {"tol": 1e-12, "max_iters": 200, "polish": 20000, "kkt_tol": 1e-13}

    def setup(self, problem, settings):
        import scipy.sparse as sp
        self.dual = problem.dual()
        W = sp.csr_matrix(self.dual.W)
        self.Ws = (0.5 * (W + W.T)).tocoo()
        self.q = np.asarray(self.dual.q, dtype=float)
        self.types, self.rows, self.mu = problem.types, problem.rows, problem.mu
        self.tol, self.max_iters = settings["tol"], int(settings["max_iters"])
        self.polish, self.kkt_tol = int(settings["polish"]), settings["kkt_tol"]
        self.m = len(self.q)
        self.lam = np.zeros(self.m)
        self.status = None
        self.kkt, self.polished = float("nan"), 0

    def iterate(self):
        from cvxopt import matrix, solvers, spmatrix
        m = self.m
        lin, soc, fixed = [], [], []
        for t, r, mu in zip(self.types.tolist(), self.rows.tolist(), self.mu.tolist()):
            r = int(r)  # cvxopt takes Python numbers only
            if t == 0:  # contact: (μ λ_n, λ_t1, λ_t2) ∈ SOC, or λ_n ≥ 0 and λ_t = 0 when μ = 0
                if mu > 0:
                    soc.append((r, mu))
                else:
                    lin.append(r)
                    fixed += [r + 1, r + 2]
            elif t == 1:  # unilateral
                lin.append(r)
        # G λ + s = 0 with s in the cones: s = (λ_lin, μλ_n, λ_t1, λ_t2, ...) ⇒ G = −selection.
        gi, gj, gv = [], [], []
        k = 0
        for r in lin:
            gi.append(k), gj.append(r), gv.append(-1.0)
            k += 1
        for r, mu in soc:
            for d, scale in ((0, mu), (1, 1.0), (2, 1.0)):
                gi.append(k), gj.append(r + d), gv.append(-scale)
                k += 1
        # Scaled so that W_s's largest diagonal entry is 1: cvxopt's tolerances are absolute.
        scale = 1.0 / max(float(np.abs(self.Ws.diagonal()).max()), 1e-300) if m else 1.0
        P = spmatrix((scale * self.Ws.data).tolist(), self.Ws.row.tolist(), self.Ws.col.tolist(),
                     (m, m))
        kw = {}
        if fixed:
            kw["A"] = spmatrix([1.0] * len(fixed), list(range(len(fixed))), fixed,
                               (len(fixed), m))
            kw["b"] = matrix(0.0, (len(fixed), 1))
        G = spmatrix(gv, gi, gj, (k, m)) if k else None
        h = matrix(0.0, (k, 1)) if k else None
        dims = {"l": len(lin), "q": [3] * len(soc), "s": []}
        opts = {"show_progress": False, "abstol": self.tol, "reltol": self.tol,
                "feastol": self.tol, "maxiters": self.max_iters, "refinement": 3}
        sol = solvers.coneqp(P, matrix(scale * self.q), G, h, dims, options=opts, **kw)
        self.lam = np.array(sol["x"]).ravel()
        self.status = sol["status"]
        if not np.all(np.isfinite(self.lam)):
            return "diverged"
        self.kkt, self.polished = self._polish(soc, lin, fixed)
        return "stopped"

    def _project(self, x, soc, lin, fixed):
        """Π_K: each contact's cone, λ ≥ 0 on unilateral rows, fixed rows 0, other rows free."""
        out = x.copy()
        if lin:
            out[lin] = np.maximum(out[lin], 0.0)
        if fixed:
            out[fixed] = 0.0
        if soc:
            r = np.array([c[0] for c in soc])
            mu = np.array([c[1] for c in soc])
            n, t1, t2 = x[r], x[r + 1], x[r + 2]
            nt = np.hypot(t1, t2)
            inside = mu * n >= nt
            polar = ~inside & (nt * mu <= -n)
            # Onto the boundary: a = (n + μ‖t‖)/(1 + μ²) along (1, μ t/‖t‖).
            a = (n + mu * nt) / (1.0 + mu * mu)
            k = np.where(nt > 0, mu * a / np.where(nt > 0, nt, 1.0), 0.0)
            n_new = np.where(inside, n, np.where(polar, 0.0, a))
            t1_new = np.where(inside, t1, np.where(polar, 0.0, k * t1))
            t2_new = np.where(inside, t2, np.where(polar, 0.0, k * t2))
            out[r], out[r + 1], out[r + 2] = n_new, t1_new, t2_new
        return out

    def _polish(self, soc, lin, fixed):
        W = self.Ws.tocsr()
        lmax = float(np.abs(W).sum(axis=1).max()) if self.m else 1.0  # ≥ the largest eigenvalue
        lam = self._project(self.lam, soc, lin, fixed)
        steps = 0
        while True:
            u = W @ lam + self.q
            kkt = np.abs(lam - self._project(lam - u, soc, lin, fixed)).max() if self.m else 0.0
            scale = np.abs(lam).max() if self.m else 0.0
            if kkt <= self.kkt_tol * max(scale, 1e-300) or steps >= self.polish:
                break
            lam = self._project(lam - u / lmax, soc, lin, fixed)
            steps += 1
        self.lam = lam
        return kkt, steps

    def current(self):
        return self.dual.velocity(self.lam), self.lam.copy()

    def info(self):
        return {"cvxopt_optimal": 1.0 if self.status == "optimal" else 0.0,
                "kkt": float(self.kkt), "polish_steps": float(self.polished)}
