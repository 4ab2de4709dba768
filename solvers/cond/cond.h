// COND (002 Alg. 1–3): contact nodalization and diagonalization. The velocity fixed-point
// iteration (V-FPI, 002:20, 23, 24) on the nodalized system Â x = b̂ + Ĵᵀλ,
//   x̃ = x − P (Â x − b̂),   λ_i = SOL(W̃_i, Ĵ_i x̃ + e_i) per constraint,   x̄ = x̃ + P Ĵᵀ λ,
// where the block-scalar P makes every W̃_i = Ĵ_i P Ĵ_iᵀ a multiple of I, so each constraint is
// solved in closed form and in parallel; Chebyshev acceleration on top (Alg. 3). No
// factorization: setup is O(nnz), an iteration is one product with Â plus per-constraint work.
#pragma once

#include <memory>

#include "problems/model/fold_soft.h"
#include "solvers/cond/chebyshev.h"
#include "solvers/cond/cond_settings.h"
#include "solvers/cond/nodalization.h"
#include "solvers/cond/row_groups.h"
#include "solvers/solver.h"

namespace ncp::cond {

class CondSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  int ThreadsUsed() const override;
  WorkCount Work() const override;

 private:
  void InitialIterate(const ContactProblem& p, const WarmStart* warm);
  void ChooseStep();
  void SolveConstraints();  // λ from x̃ = xt_, then xt_ += P Ĵᵀ λ

  CondSettings set_;
  const ContactProblem* original_ = nullptr;
  std::unique_ptr<FoldedProblem> folded_;  // soft rows folded into A, or null when there are none
  const ContactProblem* hard_ = nullptr;   // the problem nodalized: original_ or folded_->problem
  Nodalization nd_;
  RowGroups rows_;                      // nd_.A in node triples, for the per-iteration product
  Vec p_;                               // diagonal of P
  Vec x_, x_prev_, xt_, Ax_, Ax_prev_;  // x_k, x_{k−1}, x̃, Â x_k, Â x_{k−1} (BB)
  Vec lambda_;                          // hard rows of the problem nodalized
  Vec reg_;                             // R_i per hard constraint (002:37), empty when off
  Chebyshev cheb_{1, 0.0};
  double lambda_max_ = 0.0;  // λ_max(PÂ) of the initial P
  double bb_step_ = 0.0;
  double residual_ = -1.0;  // ‖x̄_{k+1} − x_k‖
  int iter_ = 0;
};

}  // namespace ncp::cond
