// The step matrix P of the V-FPI (002 §IV-C). P is diagonal and scalar on every step-size block
// (a node in contact, both nodes of a D-contact, a virtual node), so the surrogate Delassus
// operator stays diagonal (002 Prop. 3).
#pragma once

#include "solvers/cond/nodalization.h"

namespace ncp::cond {

// Frobenius-norm minimisation of ‖I − PÂ‖_F (002 §IV-C1): p_i = Â_ii / ‖Â_i‖² on free dofs,
// p = Σ Â_ii / Σ ‖Â_i‖² over each block (the first-order condition with p shared).
Vec FrobeniusStep(const Nodalization& nd);

// Largest eigenvalue of PÂ (similar to the SPD P^½ Â P^½) by power iteration from a fixed
// start vector: deterministic, `iters` products with Â, a lower estimate that converges.
double LargestEigenvalue(const SpMat& A, const Vec& p, int iters);
// Gershgorin bound max_i Σ_j |A_ij| ≥ λ_max(A), one pass over A: a safe first BB step 1/bound
// without the power iterations (BB rescales the step from the first iteration on).
double GershgorinBound(const SpMat& A);

// Barzilai–Borwein steps (002 §IV-C2) from s = x_k − x_{k−1} and y = Â s, given the products
// ss = sᵀs, sy = sᵀy, yy = yᵀy (the caller forms them in one pass without storing s and y):
// BB1 = ss / sy, BB2 = sy / yy. Returns `previous` when sy ≤ 0 or the step is not finite.
double BarzilaiBorwein(bool first_form, double ss, double sy, double yy, double previous);

}  // namespace ncp::cond
