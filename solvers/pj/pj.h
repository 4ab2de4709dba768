// Projected Jacobi (000 §IV-B2): every constraint is updated from the same residual u = W λ + q,
// in parallel (OpenMP); needs under-relaxation on coupled problems.
#pragma once

#include "solvers/common/dual_solver.h"
#include "solvers/settings_table.h"

namespace ncp {

struct PjSettings {
  double omega = 0.3;  // relaxation
  static const SettingsTable<PjSettings>& Table();
};

class PjSolver : public DualSolver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  int ThreadsUsed() const override;
  WorkCount Work() const override;

 private:
  PjSettings set_;
  std::vector<double> tangent_step_;
  Vec u_;
};

}  // namespace ncp
