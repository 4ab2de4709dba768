#include "solvers/al/al_base.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ncp {

std::vector<SettingSpec> AlSolverBase::CommonSpecs(double beta0) {
  return {{.name = "beta", .default_value = beta0, .min = 0.0, .max = 1e15, .min_open = true,
           .help = "initial penalty β₀ (004: 1e4)"},
          {.name = "kappa", .default_value = 10.0, .min = 1.0, .max = 1e6, .min_open = true,
           .help = "β growth factor κ > 1 of 004:27"},
          {.name = "beta_max", .default_value = 1e12, .min = 0.0, .max = 1e20, .min_open = true,
           .help = "upper bound of β (004:27)"},
          {.name = "zeta", .default_value = 0.5, .min = 0.0, .max = 1.0, .min_open = true,
           .help = "β grows when ‖Jv − z‖ shrank by less than this factor (Alg. 1, line 19)"},
          {.name = "newton_tol", .default_value = 1e-12, .min = 0.0, .max = 1.0, .min_open = true,
           .help = "inner stop: ‖r(v̂)‖ ≤ newton_tol·max(1, ‖b‖, ‖A v̂‖, ‖Jᵀλ‖); not reached = an "
                   "inner failure"},
          {.name = "max_newton", .default_value = 50, .min = 1, .max = 1e6, .integer = true,
           .help = "inner steps per surrogate solve"},
          // 1e-9: the inner tolerance leaves ‖Jv̂ − z‖ a floor of about 1e-10 on the dish and
          // bolt-nut cases; a stricter θ_AL lets β climb to 1e10–1e12 there, where the Newton
          // matrix loses the accuracy already reached (res004 from 1e-11 back up to 1e-5–6e-3).
          {.name = "al_tol", .default_value = 1e-9, .min = 0.0, .max = 1.0,
           .help = "θ_AL of Alg. 1: below ‖Jv̂ − z‖ ≤ al_tol·max(1, ‖Jv̂‖) the AL loop has "
                   "converged and β stays"}};
}

Status AlSolverBase::SetupAl(const ContactProblem& p, const Settings& s, const WarmStart* warm,
                             const char* name) {
  if (p.form != ProblemForm::kGlobal) {
    message_ = fmt::format("{} needs the global form (A, b, J); a local (W, q) problem has none", name);
    return Status::kNotApplicable;
  }
  // The AL and Newton steps would carry a NaN of the data silently (finite but meaningless
  // iterates); the other solvers see it as a non-finite iterate.
  if (!p.b.allFinite() || !p.e.allFinite()) {
    message_ = fmt::format("{}: non-finite b or e", name);
    return Status::kDiverged;
  }
  p_ = &p;
  beta_ = s.Get("beta");
  kappa_ = s.Get("kappa");
  beta_max_ = s.Get("beta_max");
  zeta_ = s.Get("zeta");
  newton_tol_ = s.Get("newton_tol");
  max_newton_ = s.GetInt("max_newton");
  al_tol_ = s.Get("al_tol");
  Jt_ = p.J.transpose();
  Jt_abs_ = Jt_.cwiseAbs();
  b_norm_ = p.b.norm();
  const int n = p.num_dofs(), m = p.num_rows();
  ws_n_ = Vec::Zero(n);
  abs_m_ = Vec::Zero(m);
  // Warm start (004 §V-D): v̂, λ and z = J v̂ from a previous solution.
  v_ = warm && warm->v.size() == n ? warm->v : Vec::Zero(n);
  lambda_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  u_ = -lambda_;
  z_ = p.J * v_;
  et_ = p.e;
  Jv_ = Vec::Zero(m);
  prev_primal_ = primal_ = inner_residual_ = 0.0;
  inner_last_ = inner_total_ = failures_ = iter_ = 0;
  factorizations_ = line_search_evaluations_ = 0;
  return Status::kRunning;
}

void AlSolverBase::Trials(Vec& trial) const { trial = -beta_ * Jv_ - u_ - beta_ * et_; }

double AlSolverBase::InnerTolerance(const Vec& trial) {
  ws_n_.noalias() = p_->A * v_;
  double scale = std::max({1.0, b_norm_, ws_n_.norm()});
  ws_n_.noalias() = Jt_ * lambda_;
  scale = std::max(scale, ws_n_.norm());
  abs_m_ = trial.cwiseAbs();
  ws_n_.noalias() = Jt_abs_ * abs_m_;
  return newton_tol_ * scale + 64.0 * std::numeric_limits<double>::epsilon() * ws_n_.norm();
}

double AlSolverBase::Residual(const Vec& v, ConeOperator cone, Vec& trial, Vec& r) {
  const ContactProblem& p = *p_;
  Jv_.noalias() = p.J * v;
  Trials(trial);
  for (const Constraint& c : p.constraints)
    ApplyConstraintOperator(c, beta_, trial.data() + c.row, p.e.data() + c.row,
                            lambda_.data() + c.row, cone);
  r.noalias() = p.A * v;
  r -= p.b;
  r.noalias() -= Jt_ * lambda_;
  return r.norm();
}

void AlSolverBase::AlUpdate() {
  // 004:12: z = J v̂ + (u + λ)/β, u ← u + β (J v̂ − z) = −λ.
  primal_ = 0.0;
  for (Eigen::Index q = 0; q < z_.size(); ++q) {
    z_[q] = Jv_[q] + (u_[q] + lambda_[q]) / beta_;
    const double dq = Jv_[q] - z_[q];
    primal_ += dq * dq;
    u_[q] = -lambda_[q];
  }
  primal_ = std::sqrt(primal_);
  // Alg. 1, lines 16–20: converged below θ_AL; otherwise β grows when ‖Jv̂ − z‖ stalls.
  const bool converged = primal_ <= al_tol_ * std::max(1.0, Jv_.norm());
  if (!converged && iter_ > 0 && primal_ > zeta_ * prev_primal_)
    beta_ = std::min(kappa_ * beta_, beta_max_);
  prev_primal_ = primal_;
  ++iter_;
}

void AlSolverBase::Current(Vec& v, Vec& lambda) const {
  v = v_;
  lambda = lambda_;
}

std::vector<std::pair<std::string, double>> AlSolverBase::Info() const {
  return {{"inner_iterations", static_cast<double>(inner_total_)},
          {"inner_last", static_cast<double>(inner_last_)},
          {"inner_failures", static_cast<double>(failures_)},
          {"beta", beta_},
          {"primal", primal_}};
}

SolverStats AlSolverBase::Stats() const {
  SolverStats s;
  if (iter_ > 0) {  // no AL step before the first iteration
    s.primal_residual = primal_;
    s.dual_residual = inner_residual_;
  }
  s.penalty = beta_;
  s.inner_iterations = inner_total_;
  s.refactorizations = factorizations_;
  s.line_search_steps = line_search_evaluations_;
  return s;
}

}  // namespace ncp
