// Loop-closing bilateral rows G v + e_G = 0 by the Schur complement (003 §3.1 eq. (4)):
//   Y = A'⁻¹ Gᵀ (one solve per row, in Setup),  S = G Y (dense m_G × m_G),
// so that a solve of [A' −Gᵀ; G 0] takes one A' solve, one G product and O(n m_G) work.
// S is positive semi-definite; directions with an eigenvalue at rounding level (≤ 1e-12 of the
// largest) are rows that depend on the others at this configuration (a straight deck's pin along
// the deck moves with no joint): they get no multiplier (S's pseudo-inverse, the minimum-norm
// λ_G), and schur_rank says how many remain. No heap allocation after Setup().
#pragma once

#include <Eigen/Core>
#include <string>

#include "solvers/redmax/reduced_solve.h"
#include "solvers/solver.h"

namespace ncp {

class LoopClosure {
 public:
  // kRunning, kFailed (S indefinite or non-finite, a PCG failure) or kStopped (the deadline
  // passed during the solves), with the reason in *why.
  Status Setup(const SpMat& G, ReducedSolve& solve, std::string* why);
  // r ← S⁺ r.
  void SolveInPlace(Vec& r) const {
    tmp_.noalias() = Sinv_ * r;
    r = tmp_;
  }
  // Y = A'⁻¹ Gᵀ (n × m_G).
  const Eigen::MatrixXd& Y() const { return Y_; }
  int rows() const { return static_cast<int>(Y_.cols()); }
  int rank() const { return rank_; }

 private:
  Eigen::MatrixXd Y_, Sinv_;
  mutable Vec tmp_;
  int rank_ = 0;
};

}  // namespace ncp
