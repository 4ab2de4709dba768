#include "solvers/admm/admm_full.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "problems/math/constraint_operator.h"
#include "solvers/common/dual_update.h"

namespace ncp {

std::vector<SettingSpec> AdmmFullSolver::Specs() {
  return {{"beta", 0.0, 0.0, 1e12, false, false, false, {},
           "initial penalty β; 0 = geometric mean of pseudo-densities (004 §VI-D)"},
          {"adaptive", 1.0, 0.0, 1.0, false, false, true, {}, "1: adapt β by 004:43"},
          {"gamma", 10.0, 1.0, 1e6, true, false, false, {}, "imbalance ratio γ > 1 of 004:43"},
          {"adapt_every", 1.0, 1.0, 1e6, false, false, true, {},
           "iterations between β changes, doubled at each reversal (each change refactorizes)"}};
}

// Pseudo-density per dof: A_jj over the number of constraint rows acting on it; β₀ is their
// geometric mean over the dofs that some constraint touches.
double AdmmFullSolver::InitialBeta(const ContactProblem& p) {
  const SpMat Jc = p.J;  // column-major: one column per dof
  double log_sum = 0.0;
  int count = 0;
  for (int j = 0; j < Jc.outerSize(); ++j) {
    const int rows = static_cast<int>(Jc.col(j).nonZeros());
    const double ajj = p.A.coeff(j, j);
    if (rows == 0 || !(ajj > 0)) continue;
    log_sum += std::log(ajj / rows);
    ++count;
  }
  return count ? std::exp(log_sum / count) : 1.0;
}

Status AdmmFullSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (p.form != ProblemForm::kGlobal) {
    message_ = "admm-full needs the global form (A, b, J); a local (W, q) problem has none";
    return Status::kNotApplicable;
  }
  p_ = &p;
  adaptive_ = s.GetBool("adaptive");
  adapter_.Reset(s.Get("gamma"), s.GetInt("adapt_every"));
  beta_ = s.Get("beta") > 0 ? s.Get("beta") : InitialBeta(p);
  beta0_ = beta_;
  Jt_ = p.J.transpose();
  const SpMat JtJ = Jt_ * p.J;
  // Same union pattern for both operands, so K's values are a_vals + β j_vals entry by entry.
  const SpMat Ka = p.A + 0.0 * JtJ, Kj = 0.0 * p.A + JtJ;
  K_ = Ka;
  K_.makeCompressed();
  a_vals_.assign(Ka.valuePtr(), Ka.valuePtr() + Ka.nonZeros());
  j_vals_.assign(Kj.valuePtr(), Kj.valuePtr() + Kj.nonZeros());
  chol_.Analyze(K_);
  refactorizations_ = 0;
  if (!Refactorize()) {
    message_ = "A + beta J^T J: not positive definite (Cholesky failed)";
    return Status::kFailed;
  }
  const int n = p.num_dofs(), m = p.num_rows();
  v_ = warm && warm->v.size() == n ? warm->v : Vec::Zero(n);
  lambda_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  u_ = -lambda_;
  z_ = p.J * v_;
  Jv_ = Vec::Zero(m), rhs_ = Vec::Zero(n), tmp_ = Vec::Zero(n), Av_ = Vec::Zero(n);
  iter_ = 0;
  theta_p_ = theta_d_ = 0.0;
  return Status::kRunning;
}

bool AdmmFullSolver::Refactorize() {
  double* k = K_.valuePtr();
  for (std::size_t i = 0; i < a_vals_.size(); ++i) k[i] = a_vals_[i] + beta_ * j_vals_[i];
  ++refactorizations_;
  return chol_.Factorize(K_);
}

Status AdmmFullSolver::Iterate() {
  const ContactProblem& p = *p_;
  // v̂ step: (A + β JᵀJ) v̂ = b + Jᵀ(β z − u).
  Jv_ = beta_ * z_ - u_;  // reuse Jv_ as the m-vector workspace
  rhs_.noalias() = Jt_ * Jv_;
  rhs_ += p.b;
  chol_.Solve(rhs_, v_);
  Jv_.noalias() = p.J * v_;
  // λ, z, u steps per constraint (closed form of 004:14–16).
  theta_p_ = 0.0;
  for (const Constraint& c : p.constraints) {
    const int r = c.row, nr = c.rows();
    double x[3], y[3];
    for (int k = 0; k < nr; ++k) x[k] = -beta_ * Jv_[r + k] - u_[r + k] - beta_ * p.e[r + k];
    ApplyConstraintOperator(c, beta_, x, p.e.data() + r, y);
    double prim2 = 0.0;
    for (int k = 0; k < nr; ++k) {
      lambda_[r + k] = y[k];
      z_[r + k] = Jv_[r + k] + (u_[r + k] + y[k]) / beta_;
      const double d = Jv_[r + k] - z_[r + k];
      prim2 += d * d;
      u_[r + k] += beta_ * d;
    }
    theta_p_ = std::max(theta_p_, std::sqrt(prim2));
  }
  // Dual residual θ_d = ‖A v̂ − b − Jᵀλ‖ (004:42, one subsystem).
  Av_.noalias() = p.A * v_;
  tmp_.noalias() = Jt_ * lambda_;
  Av_ -= p.b;
  Av_ -= tmp_;
  theta_d_ = Av_.norm();
  ++iter_;
  if (!std::isfinite(theta_p_) || !std::isfinite(theta_d_) || !AllFinite(v_)) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  // 004:43: rebalance β when one residual dominates the other by more than γ.
  const double scale = beta_ / beta0_;
  const double next = adaptive_ ? adapter_.Update(iter_, theta_p_, theta_d_, scale) : scale;
  if (next != scale) {
    beta_ = next * beta0_;
    if (!Refactorize()) {
      message_ = "refactorization failed";
      return Status::kFailed;
    }
  }
  return Status::kRunning;
}

void AdmmFullSolver::Current(Vec& v, Vec& lambda) const {
  v = v_;
  lambda = lambda_;
}

std::vector<std::pair<std::string, double>> AdmmFullSolver::Info() const {
  return {{"beta", beta_},
          {"theta_p", theta_p_},
          {"theta_d", theta_d_},
          {"refactorizations", static_cast<double>(refactorizations_)}};
}

}  // namespace ncp
