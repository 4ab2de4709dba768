#include "solvers/al/canal.h"

#include <cmath>

#include "solvers/al/line_search.h"
#include "solvers/common/dual_update.h"

namespace ncp {

std::vector<SettingSpec> CanalSolver::Specs() {
  return {{"beta", 1e4, 0.0, 1e15, true, false, false, {}, "initial penalty β₀ (004: 1e4)"},
          {"kappa", 10.0, 1.0, 1e6, true, false, false, {}, "β growth factor κ > 1 of 004:27"},
          {"beta_max", 1e12, 0.0, 1e20, true, false, false, {}, "upper bound of β (004:27)"},
          {"zeta", 0.5, 0.0, 1.0, true, false, false, {},
           "β grows when ‖Jv − z‖ shrank by less than this factor (Alg. 1, line 19)"},
          {"newton_tol", 1e-12, 0.0, 1.0, true, false, false, {},
           "inner stop: ‖r(v̂)‖ ≤ newton_tol·max(1, ‖b‖)"},
          {"max_newton", 50, 1, 1e6, false, false, true, {}, "Newton steps per AL iteration"},
          {"perturbation_updates", 1, 1, 100, false, false, true, {},
           "surrogate solves per AL iteration, each with p refreshed from the previous solve's z "
           "(1: as published; more: the lagged de Saxcé term converges in fewer AL iterations)"},
          {"al_tol", 1e-13, 0.0, 1.0, false, false, false, {},
           "θ_AL of Alg. 1: below ‖Jv̂ − z‖ ≤ al_tol·max(1, ‖Jv̂‖) the AL loop has converged and β "
           "stays"}};
}

Status CanalSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (p.form != ProblemForm::kGlobal) {
    message_ = "canal needs the global form (A, b, J); a local (W, q) problem has none";
    return Status::kNotApplicable;
  }
  p_ = &p;
  beta_ = s.Get("beta");
  kappa_ = s.Get("kappa");
  beta_max_ = s.Get("beta_max");
  zeta_ = s.Get("zeta");
  newton_tol_ = s.Get("newton_tol");
  max_newton_ = s.GetInt("max_newton");
  al_tol_ = s.Get("al_tol");
  perturbation_updates_ = s.GetInt("perturbation_updates");
  Jt_ = p.J.transpose();
  K_.Setup(p);
  chol_.Analyze(K_.matrix());
  const int n = p.num_dofs(), m = p.num_rows();
  D_.assign(p.constraints.size(), Mat3r::Zero());
  // Warm start from a previous solution: v̂, λ and z = J v̂ (004 §V-D).
  v_ = warm && warm->v.size() == n ? warm->v : Vec::Zero(n);
  lambda_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  u_ = -lambda_;
  z_ = p.J * v_;
  for (Vec* x : {&et_, &Jv_, &trial_, &Jd_, &lam_work_, &z_work_}) *x = Vec::Zero(m);
  for (Vec* x : {&r_, &d_, &Av_, &Ad_}) *x = Vec::Zero(n);
  prev_primal_ = primal_ = 0.0;
  inner_last_ = inner_total_ = failures_ = iter_ = 0;
  return Status::kRunning;
}

void CanalSolver::Trials(const Vec& Jv, Vec& trial) const {
  trial = -beta_ * Jv - u_ - beta_ * et_;
}

double CanalSolver::Gradient(const Vec& v, Vec& r) {
  const ContactProblem& p = *p_;
  Jv_.noalias() = p.J * v;
  Trials(Jv_, trial_);
  for (const Constraint& c : p.constraints)
    ApplyConstraintOperator(c, beta_, trial_.data() + c.row, p.e.data() + c.row,
                            lambda_.data() + c.row, ConeOperator::kProximal);
  r.noalias() = p.A * v;
  r -= p.b;
  r.noalias() -= Jt_ * lambda_;
  return r.norm();
}

double CanalSolver::Objective(const Vec& v) {
  const ContactProblem& p = *p_;
  Jv_.noalias() = p.J * v;
  Trials(Jv_, trial_);
  Av_.noalias() = p.A * v;
  double h = 0.5 * v.dot(Av_) - p.b.dot(v);
  for (const Constraint& c : p.constraints)
    h += OperatorPotential(c, beta_, trial_.data() + c.row, p.e.data() + c.row) / beta_;
  return h;
}

const SpMat& CanalSolver::Hessian(const Vec& v) {
  const ContactProblem& p = *p_;
  Jv_.noalias() = p.J * v;
  Trials(Jv_, trial_);
  for (std::size_t i = 0; i < p.constraints.size(); ++i)
    OperatorJacobian(p.constraints[i], beta_, trial_.data() + p.constraints[i].row,
                     ConeOperator::kProximal, D_[i]);
  K_.Assemble(beta_, D_);
  return K_.matrix();
}

Status CanalSolver::SolveSurrogate(double tol, int& k, bool& solved) {
  const ContactProblem& p = *p_;
  solved = false;
  for (k = 0;; ++k) {
    if (Gradient(v_, r_) <= tol) {
      solved = true;
      break;
    }
    if (k >= max_newton_) break;
    Hessian(v_);
    if (!chol_.Factorize(K_.matrix())) {
      message_ = "Newton matrix of 004:24 not positive definite";
      return Status::kFailed;
    }
    chol_.Solve(r_, d_);
    d_ = -d_;
    // Exact line search on h(v̂ + α d): h' = dᵀ r(v̂ + α d), h'' = dᵀ K(v̂ + α d) d.
    Jd_.noalias() = p.J * d_;
    Av_.noalias() = p.A * v_;
    Ad_.noalias() = p.A * d_;
    const double dAv = d_.dot(Av_) - d_.dot(p.b), dAd = d_.dot(Ad_);
    auto df = [&](double a, double& g, double& h) {
      g = dAv + a * dAd;
      h = dAd;
      for (const Constraint& c : p.constraints) {
        const int r0 = c.row, nr = c.rows();
        double x[3], y[3];
        for (int q = 0; q < nr; ++q)
          x[q] = -beta_ * (Jv_[r0 + q] + a * Jd_[r0 + q]) - u_[r0 + q] - beta_ * et_[r0 + q];
        ApplyConstraintOperator(c, beta_, x, p.e.data() + r0, y, ConeOperator::kProximal);
        Mat3r D;
        OperatorJacobian(c, beta_, x, ConeOperator::kProximal, D);
        for (int q = 0; q < nr; ++q) {
          g -= Jd_[r0 + q] * y[q];
          double Dd = 0.0;
          for (int s = 0; s < nr; ++s) Dd += D(q, s) * Jd_[r0 + s];
          h += beta_ * Jd_[r0 + q] * Dd;
        }
      }
    };
    const LineSearchResult ls = Rtsafe(df, 1.0);
    v_ += ls.alpha * d_;
    ++inner_total_;
    if (!AllFinite(v_)) {
      message_ = "non-finite iterate";
      return Status::kDiverged;
    }
  }
  if (!solved) ++failures_;
  return Status::kRunning;
}

Status CanalSolver::Iterate() {
  const ContactProblem& p = *p_;
  const double tol = newton_tol_ * std::max(1.0, p.b.norm());
  int k = 0;
  bool solved = true;
  for (int rep = 0; rep < perturbation_updates_; ++rep) {
    // ẽ = e + p with the de Saxcé perturbation p_n = μ‖(z + e)_t‖, z from the previous AL
    // iterate (rep 0) or from the previous surrogate solve of this iteration.
    if (rep > 0) z_work_ = Jv_ + (u_ + lambda_) / beta_;
    const Vec& z = rep == 0 ? z_ : z_work_;
    et_ = p.e;
    for (const Constraint& c : p.constraints)
      if (c.type == ConstraintType::kContact)
        et_[c.row] += c.mu * std::hypot(z[c.row + 1] + p.e[c.row + 1], z[c.row + 2] + p.e[c.row + 2]);
    int newton = 0;
    const Status st = SolveSurrogate(tol, newton, solved);
    k += newton;
    if (st != Status::kRunning) return st;
  }
  inner_last_ = k;
  // AL update (004:12): z = J v̂ + (u + λ)/β, u ← u + β (J v̂ − z) = −λ; λ is from the last r.
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
  if (!AllFinite(lambda_)) {
    message_ = "non-finite multiplier";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

void CanalSolver::Current(Vec& v, Vec& lambda) const {
  v = v_;
  lambda = lambda_;
}

std::vector<std::pair<std::string, double>> CanalSolver::Info() const {
  return {{"inner_iterations", static_cast<double>(inner_total_)},
          {"inner_last", static_cast<double>(inner_last_)},
          {"inner_failures", static_cast<double>(failures_)},
          {"beta", beta_},
          {"primal", primal_}};
}

}  // namespace ncp
