#include "solvers/al/canal.h"

#include <cmath>

#include "solvers/al/line_search.h"
#include "solvers/common/dual_update.h"

namespace ncp {

std::vector<SettingSpec> CanalSolver::Specs() {
  std::vector<SettingSpec> s = CommonSpecs(1e4);
  s.push_back({"perturbation_updates", 1, 1, 100, false, false, true, {},
               "surrogate solves per AL iteration, each with p refreshed from the previous "
               "solve's z (1: as published; more: the lagged de Saxcé term converges in fewer AL "
               "iterations)"});
  return s;
}

Status CanalSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (const Status st = SetupAl(p, s, warm, "canal"); st != Status::kRunning) return st;
  perturbation_updates_ = s.GetInt("perturbation_updates");
  K_.Setup(p);
  chol_.Analyze(K_.matrix());
  const int n = p.num_dofs(), m = p.num_rows();
  D_.assign(p.constraints.size(), Mat3r::Zero());
  for (Vec* x : {&trial_, &Jd_, &z_work_}) *x = Vec::Zero(m);
  for (Vec* x : {&r_, &d_, &Av_, &Ad_}) *x = Vec::Zero(n);
  return Status::kRunning;
}

double CanalSolver::Gradient(const Vec& v, Vec& r) {
  return Residual(v, ConeOperator::kProximal, trial_, r);
}

double CanalSolver::Objective(const Vec& v) {
  const ContactProblem& p = *p_;
  Jv_.noalias() = p.J * v;
  Trials(trial_);
  Av_.noalias() = p.A * v;
  double h = 0.5 * v.dot(Av_) - p.b.dot(v);
  for (const Constraint& c : p.constraints)
    h += OperatorPotential(c, beta_, trial_.data() + c.row, p.e.data() + c.row) / beta_;
  return h;
}

const SpMat& CanalSolver::Hessian(const Vec& v) {
  const ContactProblem& p = *p_;
  Jv_.noalias() = p.J * v;
  Trials(trial_);
  for (std::size_t i = 0; i < p.constraints.size(); ++i)
    OperatorJacobian(p.constraints[i], beta_, trial_.data() + p.constraints[i].row,
                     ConeOperator::kProximal, D_[i]);
  K_.Assemble(beta_, D_);
  return K_.matrix();
}

Status CanalSolver::SolveSurrogate(int& k, bool& solved) {
  const ContactProblem& p = *p_;
  solved = false;
  for (k = 0;; ++k) {
    const double rnorm = Gradient(v_, r_);
    if (rnorm <= InnerTolerance(trial_)) {
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
    if (ls.alpha == 0.0) break;  // no descent left at this precision: the step cannot improve
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
    const Status st = SolveSurrogate(newton, solved);
    k += newton;
    if (st != Status::kRunning) return st;
  }
  inner_last_ = k;
  AlUpdate();
  if (!AllFinite(lambda_)) {
    message_ = "non-finite multiplier";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

}  // namespace ncp
