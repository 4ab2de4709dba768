// CANAL (004 §V, Alg. 1): cascaded Newton-based augmented Lagrangian. Each AL iteration solves
// the convex surrogate 004:21–22 (proximal cone operator, de Saxcé perturbation p from the
// previous z) by Newton steps on 004:24 with the exact line search 004:26, then updates z, u
// (004:12) and β (004:27). One Iterate() = one AL iteration.
#pragma once

#include "solvers/al/penalized_matrix.h"
#include "solvers/common/cholmod_llt.h"
#include "solvers/solver.h"

namespace ncp {

class CanalSolver : public Solver {
 public:
  static std::vector<SettingSpec> Specs();
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;

  // The surrogate's pieces, public for tests: r(v̂) of 004:21 (fills lambda_ and the trials)
  // and h(v̂) of 004:22 at the current β, u and ẽ.
  double Gradient(const Vec& v, Vec& r);
  double Objective(const Vec& v);
  // K of 004:24 at v (operator Jacobians from the trials of the last Gradient call).
  const SpMat& Hessian(const Vec& v);

 private:
  void Trials(const Vec& Jv, Vec& trial) const;  // λ̃* = −β J v̂ − u − β ẽ
  // Newton steps with exact line search on 004:22 at the current ẽ; k = steps taken.
  Status SolveSurrogate(double tol, int& k, bool& solved);

  const ContactProblem* p_ = nullptr;
  double beta_ = 1e4, kappa_ = 10, beta_max_ = 1e12, zeta_ = 0.5, newton_tol_ = 1e-12, al_tol_ = 1e-13;
  int max_newton_ = 50, perturbation_updates_ = 1;
  PenalizedMatrix K_;
  CholmodLLT chol_;
  SpMat Jt_;
  std::vector<Mat3r> D_;
  Vec v_, z_, z_work_, u_, lambda_, et_, Jv_, trial_, r_, d_, Jd_, Av_, Ad_, lam_work_;
  double prev_primal_ = 0.0, primal_ = 0.0;
  int inner_last_ = 0, inner_total_ = 0, failures_ = 0, iter_ = 0;
};

}  // namespace ncp
