// The augmented-Lagrangian outer loop shared by canal and the semismooth-Newton ablations
// (004 §IV–V): state (v̂, z, u, λ, β), trials λ* = −β J v̂ − u − β ẽ, the multiplier update of
// 004:12 and the β schedule of 004:27 (Alg. 1, lines 15–20). One Iterate() = one AL iteration;
// derived classes solve the surrogate in between.
#pragma once

#include "problems/model/contact_problem.h"
#include "solvers/al/operator_jacobian.h"
#include "solvers/solver.h"

namespace ncp {

class AlSolverBase : public Solver {
 public:
  // The settings every AL solver has (β₀, κ, β_max, ζ, inner tolerance and cap, θ_AL).
  static std::vector<SettingSpec> CommonSpecs(double beta0);
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // ‖J v̂ − z‖ of the last AL update, ‖r(v̂)‖ where the last surrogate solve stopped, the β of
  // the next iteration, Newton steps, factorizations and line-search evaluations (−1 where the
  // globalization has no line search).
  SolverStats Stats() const override;

 protected:
  // Reads the common settings and the warm start; kNotApplicable for local problems.
  Status SetupAl(const ContactProblem& p, const Settings& s, const WarmStart* warm,
                 const char* name);
  // λ* for all rows at J v̂ (Jv_), with the bias et_.
  void Trials(Vec& trial) const;
  // After the surrogate solve (Jv_ and lambda_ current): z, u, primal residual and β.
  void AlUpdate();
  // Newton tolerance on ‖r(v̂)‖ at the current v̂, λ and trials: relative to the terms r
  // balances (A v̂, b, Jᵀλ), plus the rounding floor ε‖|Jᵀ||λ*|‖ that grows with β.
  double InnerTolerance(const Vec& trial);
  // r(v̂) = A v̂ − b − Σ J_iᵀ T(λ*_i) with the given cone operator (004:19 strict, 004:21
  // proximal); fills Jv_, trial and lambda_; returns ‖r‖.
  double Residual(const Vec& v, ConeOperator cone, Vec& trial, Vec& r);

  const ContactProblem* p_ = nullptr;
  double beta_ = 1e4, kappa_ = 10, beta_max_ = 1e12, zeta_ = 0.5, newton_tol_ = 1e-12,
         al_tol_ = 1e-9;
  int max_newton_ = 50;
  SpMat Jt_, Jt_abs_;
  Vec v_, z_, u_, lambda_, et_, Jv_;
  Vec ws_n_, abs_m_;  // workspaces of InnerTolerance
  double b_norm_ = 0.0;
  double prev_primal_ = 0.0, primal_ = 0.0;
  double inner_residual_ = 0.0;  // ‖r(v̂)‖ where the last surrogate solve stopped
  int inner_last_ = 0, inner_total_ = 0, failures_ = 0, iter_ = 0;
  int factorizations_ = 0, line_search_evaluations_ = 0;  // the latter −1: no line search
};

}  // namespace ncp
