// Projected Jacobi (000 §IV-B2): every constraint is updated from the same residual u = W λ + q,
// in parallel (OpenMP); needs under-relaxation on coupled problems.
#pragma once

#include "solvers/common/dual_solver.h"

namespace ncp {

class PjSolver : public DualSolver {
 public:
  static std::vector<SettingSpec> Specs();
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  int ThreadsUsed() const override;

 private:
  double omega_ = 0.3;
  std::vector<double> tangent_step_;
  Vec u_;
};

}  // namespace ncp
