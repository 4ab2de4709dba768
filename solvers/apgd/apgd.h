// Accelerated projected gradient descent on the dual (Mazhar et al. 2015, the APGD baseline of
// 002 §V-C1): Nesterov steps with a backtracking (adaptive) step size and gradient restart.
// friction_model=ccp solves the cone complementarity relaxation, as published; coulomb (default)
// adds the de Saxcé term μ‖u_t‖ to the normal gradient so the fixed point is the Coulomb NCP.
#pragma once

#include "solvers/common/dual_solver.h"
#include "solvers/settings_table.h"

namespace ncp {

struct ApgdSettings {
  enum class FrictionModel { kCoulomb, kCcp };
  static constexpr auto kFrictionModels = ChoiceNames<FrictionModel>(
      {{FrictionModel::kCoulomb, "coulomb"}, {FrictionModel::kCcp, "ccp"}});
  FrictionModel friction_model = FrictionModel::kCoulomb;
  bool restart = true;       // gradient-based adaptive restart
  double step_shrink = 0.9;  // factor on the Lipschitz estimate after an accepted step
  static const SettingsTable<ApgdSettings>& Table();
};

class ApgdSolver : public DualSolver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // Only the backtracking's objective evaluations: APGD has no penalty, inner solve or
  // factorization, and its restarts fit no field.
  SolverStats Stats() const override;
  int ThreadsUsed() const override;
  WorkCount Work() const override;

 private:
  void Gradient(const Vec& x, Vec& Wx, Vec& g) const;  // Wx = W x, g = W x + q (+ de Saxcé)
  void Project(Vec& x) const;
  double Objective(const Vec& x, const Vec& Wx, const Vec& s) const;

  ApgdSettings set_;
  Vec y_, xnew_, g_, Wy_, Wx_, s_, diff_;  // the iterate x is lambda_
  double L_ = 1.0, theta_ = 1.0;
  int backtracks_ = 0, restarts_ = 0, ls_evaluations_ = 0;
};

}  // namespace ncp
