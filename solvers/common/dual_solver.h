// Base of the solvers that iterate on the dual form u = W λ + q (pgs, pj, apgd): builds the
// dual problem and the initial λ, reports v = A⁻¹(b + Jᵀλ), and guards against blow-up.
#pragma once

#include "solvers/common/dual_problem.h"
#include "solvers/solver.h"

namespace ncp {

class DualSolver : public Solver {
 public:
  void Current(Vec& v, Vec& lambda) const override;

 protected:
  // Builds dual_ and lambda_ (warm start when its size fits, else zero). On failure (A not SPD)
  // sets message_ and returns false.
  bool SetupDual(const ContactProblem& p, const WarmStart* warm);
  // kRunning, or kDiverged with a message when λ is non-finite or exploding.
  Status CheckFinite();

  DualProblem dual_;
  Vec lambda_;
};

}  // namespace ncp
