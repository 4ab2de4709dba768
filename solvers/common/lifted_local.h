// The lifted primal form of a local (W, q) problem (DESIGN.md "The problem"): with the symmetric
// part W_s = (W + Wᵀ)/2 ≈ L_r L_rᵀ (Cholesky with diagonal pivoting, stopped at the first pivot
// D_k ≤ rank_tol·max D, columns scaled by √D_k), the global problem A = I_r, b = 0, J = L_r,
// e = q has v̂ = L_rᵀ λ and u = J v̂ + e = L_r L_rᵀ λ + q, so every primal solver can run on it. The
// skew part (W − Wᵀ)/2 of a non-symmetric export and the truncation W_s − L_r L_rᵀ are not
// represented: LiftedSolver corrects e for them.
#pragma once

#include <string>

#include "problems/model/contact_problem.h"

namespace ncp {

// Dense m × m work (W, W_s, the factor and the truncation check, 8m² bytes each, O(m² r)
// flops): larger local problems are refused with a reason instead of allocating gigabytes
// (4000 rows: 128 MB per matrix, about half a gigabyte in all).
inline constexpr int kMaxLiftedRows = 4000;
// The factorization stops at the first pivot D_k ≤ tol·max D: the rounding noise of a
// rank-deficient W_s (stacks) is about m·ε·max D, far below, and what is left, a semidefinite
// Schur complement, has no entry above that pivot.
inline constexpr double kLiftedRankTol = 1e-12;

struct LiftedLocal {
  ContactProblem problem;   // global form: A = I_r, b = 0, J = L_r (m × r), e = q
  int rank = 0;             // r
  int rows = 0;             // m
  double truncation = 0.0;  // max|W_s − L_r L_rᵀ| / max|W|
  double asymmetry = 0.0;   // max|W − Wᵀ| / max|W|
};

// Builds the lifted form of a local problem into `out`. Returns "" on success, else the reason
// (not a local problem, more than kMaxLiftedRows rows, non-finite W or q, W_s has no positive
// pivot). Never throws for a well-formed ContactProblem.
std::string BuildLiftedLocal(const ContactProblem& local, LiftedLocal& out,
                             double rank_tol = kLiftedRankTol);

}  // namespace ncp
