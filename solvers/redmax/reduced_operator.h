// The reduced system matrix with the soft rows folded in (as problems/model/fold_soft.h does,
// 004:4 substituted into 004:8):
//   A' = A + J_sᵀ D J_s,   b' = b − J_sᵀ (k ∘ e_s),   λ_s = −k ∘ e_s − d ∘ J_s v,
// applied matrix-free (two sparse products, 003 §3 requirement (2)) or assembled for a direct
// factorization. No heap allocation after Init().
#pragma once

#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

class ReducedOperator {
 public:
  // soft: indices of the problem's soft constraints (1 row each).
  void Init(const ContactProblem& p, const std::vector<int>& soft);
  // y = A' x (y must not alias x).
  void Apply(const Vec& x, Vec& y) const;
  // b' of the folded system.
  const Vec& rhs() const { return rhs_; }
  // λ_s = −k ∘ e_s − d ∘ J_s v, one entry per soft constraint (in the order given to Init).
  void SoftMultipliers(const Vec& v, Vec& lambda_s) const;
  // The same from the soft rows' rates u = J_s v computed elsewhere (through the bodies).
  void SoftMultipliersFromRates(const double* u, Vec& lambda_s) const;
  // A' as a sparse matrix (both triangles), for the direct factorizations.
  SpMat Assemble() const;
  int dofs() const { return static_cast<int>(A_->rows()); }
  int soft_rows() const { return static_cast<int>(d_.size()); }

 private:
  const SpMat* A_ = nullptr;
  SpMat Js_, Jst_;  // soft rows of J, and their transpose stored column-major: Eigen runs a
                    // transposed product row by row with OpenMP, which spins on a busy machine
  Vec k_, d_, ke_;  // stiffness, damping, k ∘ e_s
  Vec rhs_;
  mutable Vec tmp_;  // J_s x
};

// The rows of `p.J` named by `rows` (in that order) as a sparse matrix.
SpMat SelectRows(const SpMat& J, const std::vector<int>& rows);

}  // namespace ncp
