// RedMax (003 §3–4): the reduced-coordinate dynamics with maximal springs. Soft rows are folded
// into A' = A + J_sᵀ D J_s (implicit springs), loop-closing bilateral rows G v + e_G = 0 are
// solved by the Schur complement S = G A'⁻¹ Gᵀ (003 §3.1):
//   v0 = A'⁻¹ b',  λ_G = S⁻¹(−e_G − G v0),  v = v0 + A'⁻¹ Gᵀ λ_G,  λ_s = −k e_s − d J_s v.
// A' is solved by PCG with the projected block-Jacobi preconditioner (default), CHOLMOD or a
// dense LLT. Each Iterate() is one such solve applied to the current residuals (PCG from the
// current v and λ_G): the first to ‖r‖ ≤ pcg_tol ‖b' + Gᵀλ_G‖ (003 §6's rule, so that a warm
// start from the previous step saves iterations), later ones to pcg_tol times the residual they
// start from (iterative refinement: each improves an inexact PCG solution further).
// Applies to global problems with soft and bilateral rows only (no contact, no unilateral rows).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "solvers/redmax/loop_closure.h"
#include "solvers/redmax/reduced_operator.h"
#include "solvers/redmax/reduced_solve.h"
#include "solvers/redmax/redmax_settings.h"
#include "solvers/solver.h"

namespace ncp {

class RedmaxSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  SolverStats Stats() const override;

 private:
  // A one-line refusal: the rows redmax cannot solve, or "" when there are none.
  std::string Unsupported(const ContactProblem& p) const;

  RedmaxSettings set_;
  const ContactProblem* p_ = nullptr;
  std::vector<int> soft_, bilateral_;  // constraint indices
  std::vector<int> soft_row_, bilateral_row_;
  ReducedOperator op_;
  ReducedSolve solve_;
  LoopClosure loop_;
  SpMat G_, Gt_;
  Vec eG_;
  Vec v_, lambda_g_, lambda_s_;
  Vec r1_, dv_, r2_, w_;  // workspaces of Iterate()
  bool ready_ = false;
  int iterations_ = 0;
};

}  // namespace ncp
