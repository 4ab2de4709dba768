#include "solvers/ccs/ccs.h"

#include <fmt/format.h>

#include <cmath>

#include "solvers/common/dual_update.h"
#include "solvers/common/factor_setting.h"
#include "solvers/common/work_count.h"

namespace ncp {

const SettingsTable<CcsSettings>& CcsSettings::Table() {
  using C = CcsSettings;
  static const auto t = [] {
    SettingsTable<C> t;
    t.Real(&C::weight, "weight", {.min = 0.0, .max = 1e6, .min_open = true},
           "W = weight · diag(A), the metric of the splitting (Daviet 2020: near the potential's "
           "Hessian; lower converges faster until it no longer converges)")
        .Int(&C::sweeps, "sweeps", {.min = 1, .max = 1000},
             "projected Gauss–Seidel sweeps of the contact step per iteration");
    AddFactorSetting(t, &C::factor, "A + W, factored once: ");
    return t;
  }();
  return t;
}

Status CcsSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  chol_.reset();  // a factor from an earlier Setup of this instance is not this problem's
  if (p.form != ProblemForm::kGlobal) {
    message_ = "ccs needs the global form (A, b, J); a local (W, q) problem has none";
    return Status::kNotApplicable;
  }
  p_ = &p;
  set_ = CcsSettings::Table().From(s);
  const int n = p.num_dofs(), m = p.num_rows();
  K_ = p.A;
  K_.makeCompressed();
  w_ = K_.diagonal();
  for (int j = 0; j < n; ++j)
    if (!(w_[j] > 0) || !std::isfinite(w_[j])) {
      message_ = fmt::format(
          "A's diagonal: entry {} is {:g}; ccs's W = weight · diag(A) needs it "
          "positive and finite",
          j, w_[j]);
      return Status::kFailed;
    }
  w_ *= set_.weight;
  K_.diagonal() += w_;  // A's diagonal entries exist: each is positive
  chol_ = std::make_unique<CholmodLLT>(set_.factor);
  chol_->Analyze(K_);
  if (!chol_->Factorize(K_)) {
    message_ = "A + W: not positive definite (Cholesky failed)";
    return Status::kFailed;
  }
  Jt_ = p.J.transpose();
  contact_ = MakeDiagonalDual(p, w_);
  q0_ = contact_.q;
  TangentSteps(contact_, tangent_step_);
  r_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  p_vel_ = warm && warm->v.size() == n ? warm->v : Vec::Zero(n);
  // At a fixed point p = v and W y = Jᵀ r: y from the warm r.
  jtr_ = Jt_ * r_;
  y_ = jtr_.cwiseQuotient(w_);
  v_ = p_vel_, rhs_ = Vec::Zero(n), start_ = Vec::Zero(n), p_prev_ = p_vel_;
  primal_ = dual_ = 0.0;
  iter_ = 0;
  return Status::kRunning;
}

Status CcsSolver::Iterate() {
  const ContactProblem& p = *p_;
  // v ← (A + W)⁻¹ (b + W (p + y)).
  rhs_.array() = w_.array() * (p_vel_ + y_).array() + p.b.array();
  chol_->Solve(rhs_, v_);
  // p ← v − y + W⁻¹ Jᵀ r with (J p + e, r) Signorini–Coulomb: u = W_c r + J (v − y) + e.
  start_ = v_ - y_;
  contact_.q.noalias() = p.J * start_;
  contact_.q += q0_;
  for (int k = 0; k < set_.sweeps; ++k)
    for (std::size_t i = 0; i < p.constraints.size(); ++i)
      GaussSeidelUpdate(contact_, p.constraints[i], tangent_step_[i], 1.0, r_);
  p_prev_ = p_vel_;
  jtr_.noalias() = Jt_ * r_;
  p_vel_.array() = start_.array() + jtr_.array() / w_.array();
  y_ += p_vel_ - v_;
  primal_ = (p_vel_ - v_).norm();
  dual_ = (w_.array() * (p_vel_ - p_prev_).array()).matrix().norm();
  ++iter_;
  if (!std::isfinite(primal_) || !std::isfinite(dual_) || !AllFinite(r_) || !AllFinite(p_vel_)) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

void CcsSolver::Current(Vec& v, Vec& lambda) const {
  v = p_vel_;
  lambda = r_;
}

std::vector<std::pair<std::string, double>> CcsSolver::Info() const {
  return {{"weight", set_.weight},
          {"sweeps", static_cast<double>(set_.sweeps)},
          {"primal", primal_},
          {"dual", dual_},
          {"contact_nonzeros", static_cast<double>(contact_.W.nonZeros())},
          // What factor=auto chose (1: supernodal).
          {"supernodal", chol_ && chol_->supernodal()}};
}

SolverStats CcsSolver::Stats() const {
  SolverStats s;
  if (iter_ > 0) {  // no residual before the first iteration
    s.primal_residual = primal_;
    s.dual_residual = dual_;
  }
  s.penalty = set_.weight;
  s.refactorizations = chol_ ? 1 : 0;
  return s;
}

// Per iteration (n dofs, m rows): the factor's two triangular solves (with rhs, v and its work
// vector); J and Jᵀ once each; the n-vectors w, b, p, y, v − y, p_prev and Jᵀr once each (7
// passes, about 14 flops per dof); q0 (1 pass). Per sweep: W_c once (each row's dot product
// reads its column) and λ, q and diag (3 passes, about 6 flops a row).
WorkCount CcsSolver::Work() const {
  using namespace work;
  if (p_ == nullptr || !chol_) return {};
  const double n = p_->num_dofs(), m = p_->num_rows();
  const WorkCount it = SparseFactorSolve(chol_->factor_nonzeros(), n) + SparseProduct(p_->J) +
                       SparseProduct(Jt_) + Vectors(n, 7, 14) + Vectors(m, 1, 1) +
                       set_.sweeps * (SparseProduct(contact_.W) + Vectors(m, 3, 6));
  return iter_ * it;
}

}  // namespace ncp
