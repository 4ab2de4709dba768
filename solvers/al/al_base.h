// The augmented-Lagrangian outer loop shared by canal and the semismooth-Newton ablations
// (004 §IV–V): state (v̂, z, u, λ, β), trials λ* = −β J v̂ − u − β ẽ, the multiplier update of
// 004:12 and the β schedule of 004:27 (Alg. 1, lines 15–20). One Iterate() = one AL iteration;
// derived classes solve the surrogate in between.
#pragma once

#include "problems/model/contact_problem.h"
#include "solvers/al/operator_jacobian.h"
#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp {

// The settings every AL solver has (β₀, κ, β_max, ζ, inner tolerance and cap, θ_AL).
struct AlSettings {
  double beta = 1e4, kappa = 10.0, beta_max = 1e12, zeta = 0.5, newton_tol = 1e-12;
  int max_newton = 50;
  // 1e-9: the inner tolerance leaves ‖Jv̂ − z‖ a floor of about 1e-10 on the dish and bolt-nut
  // cases; a stricter θ_AL lets β climb to 1e10–1e12 there, where the Newton matrix loses the
  // accuracy already reached (res004 from 1e-11 back up to 1e-5–6e-3).
  double al_tol = 1e-9;
  static const SettingsTable<AlSettings>& Table();
};

// The common settings of a table, first wherever they appear (S derives from AlSettings).
template <typename S>
void AddAlCommon(SettingsTable<S>& t) {
  t.Real(&S::beta, "beta", {.min = 0.0, .max = 1e15, .min_open = true},
         "initial penalty β₀ (004: 1e4)")
      .Real(&S::kappa, "kappa", {.min = 1.0, .max = 1e6, .min_open = true},
            "β growth factor κ > 1 of 004:27")
      .Real(&S::beta_max, "beta_max", {.min = 0.0, .max = 1e20, .min_open = true},
            "upper bound of β (004:27)")
      .Real(&S::zeta, "zeta", {.min = 0.0, .max = 1.0, .min_open = true},
            "β grows when ‖Jv − z‖ shrank by less than this factor (Alg. 1, line 19)")
      .Real(&S::newton_tol, "newton_tol", {.min = 0.0, .max = 1.0, .min_open = true},
            "inner stop: ‖r(v̂)‖ ≤ newton_tol·max(‖b‖, ‖A v̂‖, ‖Jᵀλ‖) (+ rounding of Jᵀλ's terms); "
            "not reached = an inner failure")
      .Int(&S::max_newton, "max_newton", {.min = 1, .max = 1e6}, "inner steps per surrogate solve")
      .Real(&S::al_tol, "al_tol", {.min = 0.0, .max = 1.0},
            "θ_AL of Alg. 1: below ‖Jv̂ − z‖ ≤ al_tol·max(‖J D⁻¹b‖ + ‖e‖, ‖Jv̂‖) (D = diag A: the "
            "problem's velocity unit) the AL loop has converged and β stays");
}

class AlSolverBase : public Solver {
 public:
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
  // The problem's own velocity units, so that the AL loop's thresholds (004 Alg. 1's θ_th^AL)
  // follow the data's units instead of one absolute unit: v_unit_ = ‖D⁻¹b‖ (D = diag A, the
  // free velocity without the constraints, by the diagonal) and u_unit_ = ‖J D⁻¹ b‖ + ‖e‖
  // (the constraint velocity the multipliers must cancel; ‖q‖ for a lifted local problem).
  // Nonzero at rest, where J v̂ vanishes; both scale with b and e.
  double v_unit_ = 0.0, u_unit_ = 0.0;
  double prev_primal_ = 0.0, primal_ = 0.0;
  double inner_residual_ = 0.0;  // ‖r(v̂)‖ where the last surrogate solve stopped
  int inner_last_ = 0, inner_total_ = 0, failures_ = 0, iter_ = 0;
  int factorizations_ = 0, line_search_evaluations_ = 0;  // the latter −1: no line search
};

}  // namespace ncp
