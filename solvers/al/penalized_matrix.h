// K = A + β Σ_i J_iᵀ D_i J_i on the fixed pattern of A + JᵀJ, rebuilt in place without
// allocation: for each constraint the dense columns it touches and, per pair of them, the index
// of the entry in K's value array are computed once. D_i is the operator Jacobian of 004:24.
#pragma once

#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/al/operator_jacobian.h"

namespace ncp {

class PenalizedMatrix {
 public:
  void Setup(const ContactProblem& p);
  // K ← A + β Σ J_iᵀ D_i J_i with D_i = blocks[i] (rows × rows, top-left of each 3×3).
  void Assemble(double beta, const std::vector<Mat3r>& blocks);
  const SpMat& matrix() const { return K_; }

 private:
  const ContactProblem* p_ = nullptr;
  SpMat K_;
  std::vector<double> a_vals_;
  std::vector<int> col_begin_, cols_;  // per constraint: its columns
  std::vector<double> dense_;          // per constraint: rows × k dense J_i, row-major
  std::vector<int> dense_begin_;
  std::vector<int> pair_begin_, pair_index_;  // per constraint: K value index of (a, b)
  std::vector<double> work_;                  // D_i J_i for the largest constraint
};

}  // namespace ncp
