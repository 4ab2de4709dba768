// Projected Gauss–Seidel on the dual form (004 §VII baseline, 000 §IV-B1, 002 §V-C1), strict
// friction operator, optional over-relaxation and the nonsmooth nonlinear conjugate-gradient
// acceleration (NNCG, Silcowitz et al. 2010) that 000 §IV-B1 uses. `order=colour` sweeps the
// constraints colour by colour (a greedy colouring of W's constraint graph): constraints of one
// colour share no entry of W, so they are updated in parallel, and the iterates do not depend on
// the number of threads.
#pragma once

#include "solvers/common/dual_solver.h"
#include "solvers/settings_table.h"
#include "solvers/pgs/colouring.h"

namespace ncp {

struct PgsSettings {
  double omega = 1.0;  // over-relaxation, (0, 2)
  bool nncg = false;   // conjugate-gradient acceleration of the sweeps
  enum class Order { kSequential, kColour };
  static constexpr auto kOrders =
      ChoiceNames<Order>({{Order::kSequential, "sequential"}, {Order::kColour, "colour"}});
  Order order = Order::kSequential;
  static const SettingsTable<PgsSettings>& Table();
};

class PgsSolver : public DualSolver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  std::vector<std::pair<std::string, double>> Info() const override;
  int ThreadsUsed() const override;
  WorkCount Work() const override;

 private:
  void Sweep();
  void Update(std::size_t i);  // constraint i against the current λ
  bool Parallel() const;

  PgsSettings set_;
  std::vector<double> tangent_step_;
  Vec prev_, dir_;  // previous iterate and search direction (NNCG)
  double prev_norm2_ = 0.0;
  int restarts_ = 0;
  Colouring colouring_;  // order=colour only
};

}  // namespace ncp
