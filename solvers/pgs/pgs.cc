#include "solvers/pgs/pgs.h"

#include "solvers/common/dual_update.h"

namespace ncp {

std::vector<SettingSpec> PgsSettings::Specs() {
  return {{.name = "omega", .default_value = 1.0, .min = 0.0, .max = 2.0, .min_open = true,
           .max_open = true, .help = "over-relaxation factor"},
          {.name = "nncg", .default_value = 0.0, .min = 0.0, .max = 1.0, .integer = true,
           .help = "1: nonsmooth nonlinear conjugate-gradient acceleration (000 §IV-B1)"}};
}

PgsSettings PgsSettings::From(const Settings& s) {
  PgsSettings p;
  p.omega = s.Get("omega");
  p.nncg = s.GetBool("nncg");
  return p;
}

Status PgsSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = PgsSettings::From(s);
  if (!SetupDual(p, warm)) return Status::kFailed;
  TangentSteps(dual_, tangent_step_);
  prev_ = lambda_;
  dir_ = Vec::Zero(dual_.rows());
  prev_norm2_ = 0.0;
  restarts_ = 0;
  return Status::kRunning;
}

void PgsSolver::Sweep() {
  const auto& cs = *dual_.constraints;
  const SpMat& W = dual_.W;
  const Vec& q = dual_.q;
  const double w = set_.omega;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Constraint& c = cs[i];
    const int r = c.row;
    if (c.type == ConstraintType::kJointFriction) {  // n bilateral, then t in its box
      const double un = q[r] + RowDot(W, r, lambda_);
      lambda_[r] = UpdateScalarRow(ConstraintType::kBilateral, lambda_[r], un, dual_.diag[r], w);
      const double ut = q[r + 1] + RowDot(W, r + 1, lambda_);
      lambda_[r + 1] =
          UpdateJointFrictionTangent(c.mu, lambda_[r], lambda_[r + 1], ut, dual_.diag[r + 1], w);
      continue;
    }
    if (c.type != ConstraintType::kContact) {
      const double u = q[r] + RowDot(W, r, lambda_);
      lambda_[r] = UpdateScalarRow(c.type, lambda_[r], u, dual_.diag[r], w);
      continue;
    }
    // Normal first, then the tangential pair against the updated normal (strict operator).
    const double un = q[r] + RowDot(W, r, lambda_);
    const double ln = dual_.diag[r] > 0 ? lambda_[r] - w * un / dual_.diag[r] : lambda_[r];
    lambda_[r] = ln > 0 ? ln : 0.0;
    const double u1 = q[r + 1] + RowDot(W, r + 1, lambda_);
    const double u2 = q[r + 2] + RowDot(W, r + 2, lambda_);
    UpdateTangent(c.mu, lambda_[r], tangent_step_[i], w, u1, u2, lambda_[r + 1],
                  lambda_[r + 2]);
  }
}

Status PgsSolver::Iterate() {
  if (!set_.nncg) {
    Sweep();
  } else {
    // NNCG: the PGS step r = x⁺ − x acts as a negative gradient; Fletcher–Reeves on it,
    // restarting when the ratio exceeds one.
    prev_ = lambda_;
    Sweep();
    double norm2 = 0.0;
    for (Eigen::Index k = 0; k < lambda_.size(); ++k) {
      const double rk = lambda_[k] - prev_[k];
      norm2 += rk * rk;
    }
    const double beta = prev_norm2_ > 0 ? norm2 / prev_norm2_ : 0.0;
    if (beta > 1.0 || prev_norm2_ == 0.0) {
      if (prev_norm2_ > 0) ++restarts_;
      for (Eigen::Index k = 0; k < lambda_.size(); ++k) dir_[k] = lambda_[k] - prev_[k];
    } else {
      for (Eigen::Index k = 0; k < lambda_.size(); ++k) {
        const double rk = lambda_[k] - prev_[k];
        dir_[k] = beta * dir_[k] + rk;  // p ← β p + r
        lambda_[k] = prev_[k] + dir_[k];  // x ← x⁺ + β p_old = x + p
      }
    }
    prev_norm2_ = norm2;
  }
  return CheckFinite();
}

std::vector<std::pair<std::string, double>> PgsSolver::Info() const {
  return {{"nncg_restarts", static_cast<double>(restarts_)}};
}

}  // namespace ncp
