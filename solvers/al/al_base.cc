#include "solvers/al/al_base.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ncp {

const SettingsTable<AlSettings>& AlSettings::Table() {
  static const auto t = [] {
    SettingsTable<AlSettings> t;
    AddAlCommon(t);
    return t;
  }();
  return t;
}

Status AlSolverBase::SetupAl(const ContactProblem& p, const Settings& s, const WarmStart* warm,
                             const char* name) {
  if (p.form != ProblemForm::kGlobal) {
    message_ =
        fmt::format("{} needs the global form (A, b, J); a local (W, q) problem has none", name);
    return Status::kNotApplicable;
  }
  // The AL and Newton steps would carry a NaN of the data silently (finite but meaningless
  // iterates); the other solvers see it as a non-finite iterate.
  if (!p.b.allFinite() || !p.e.allFinite()) {
    message_ = fmt::format("{}: non-finite b or e", name);
    return Status::kDiverged;
  }
  p_ = &p;
  const AlSettings set = AlSettings::Table().From(s);
  beta_ = set.beta, kappa_ = set.kappa, beta_max_ = set.beta_max, zeta_ = set.zeta;
  newton_tol_ = set.newton_tol, max_newton_ = set.max_newton, al_tol_ = set.al_tol;
  Jt_ = p.J.transpose();
  Jt_abs_ = Jt_.cwiseAbs();
  b_norm_ = p.b.norm();
  const int n = p.num_dofs(), m = p.num_rows();
  ws_n_ = Vec::Zero(n);
  const Vec adiag = p.A.diagonal();
  for (int k = 0; k < n; ++k) ws_n_[k] = adiag[k] > 0.0 ? p.b[k] / adiag[k] : 0.0;
  v_unit_ = ws_n_.norm();
  u_unit_ = (p.J * ws_n_).norm() + p.e.norm();
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
  // Relative to the problem's own magnitudes only: a floor in absolute units (such as 1) would
  // stop a problem posed in small units (impulses of 1e-6) at once, far from its solution.
  ws_n_.noalias() = p_->A * v_;
  double scale = std::max(b_norm_, ws_n_.norm());
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
  const bool converged = primal_ <= al_tol_ * std::max(u_unit_, Jv_.norm());
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
