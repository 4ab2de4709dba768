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
  // Work of `products` products with W, `passes` passes over m-vectors and `flops` operations
  // per row besides the products (work_count.h conventions).
  WorkCount DualWork(double products, double passes, double flops) const;

  DualProblem dual_;
  Vec lambda_;
  long iterations_ = 0;  // since Setup, for Work()
};

}  // namespace ncp
