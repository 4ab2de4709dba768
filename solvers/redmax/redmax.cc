#include "solvers/redmax/redmax.h"

#include <fmt/format.h>

namespace ncp {

std::string RedmaxSolver::Unsupported(const ContactProblem& p) const {
  if (p.form != ProblemForm::kGlobal)
    return "redmax: needs the global form (A, b, J); a local (W, q) problem has no dynamics";
  int contact = 0, unilateral = 0;
  for (const Constraint& c : p.constraints) {
    if (c.type == ConstraintType::kContact) contact += 3;
    if (c.type == ConstraintType::kUnilateral) ++unilateral;
  }
  if (contact == 0 && unilateral == 0) return {};
  std::string rows = contact > 0 ? fmt::format("{} contact rows", contact) : "";
  if (unilateral > 0)
    rows += fmt::format("{}{} unilateral rows", rows.empty() ? "" : " and ", unilateral);
  return fmt::format(
      "redmax: {}; redmax solves only soft and bilateral (loop-closure) rows — "
      "use sp, admm-full, subadmm or nnewton",
      rows);
}

Status RedmaxSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  ready_ = false;
  p_ = &p;
  set_ = RedmaxSettings::Table().From(s);
  message_.clear();
  if (std::string why = Unsupported(p); !why.empty()) {
    message_ = why;
    return Status::kNotApplicable;
  }
  soft_.clear(), bilateral_.clear(), soft_row_.clear(), bilateral_row_.clear();
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    (c.type == ConstraintType::kSoft ? soft_ : bilateral_).push_back(i);
    (c.type == ConstraintType::kSoft ? soft_row_ : bilateral_row_).push_back(c.row);
  }
  const int n = p.num_dofs(), mg = static_cast<int>(bilateral_.size());
  op_.Init(p, soft_);
  G_ = SelectRows(p.J, bilateral_row_);
  Gt_ = G_.transpose();
  eG_.resize(mg);
  for (int k = 0; k < mg; ++k) eG_[k] = p.e[bilateral_row_[k]];
  v_ = Vec::Zero(n), lambda_g_ = Vec::Zero(mg), lambda_s_ = Vec::Zero(soft_.size());
  r1_ = Vec::Zero(n), dv_ = Vec::Zero(n), w_ = Vec::Zero(n), r2_ = Vec::Zero(mg);
  if (warm && warm->v.size() == n) v_ = warm->v;
  if (warm && warm->lambda.size() == p.num_rows())
    for (int k = 0; k < mg; ++k) lambda_g_[k] = warm->lambda[bilateral_row_[k]];
  op_.SoftMultipliers(v_, lambda_s_);
  std::string why;
  Status st = solve_.Setup(
      p, soft_, op_, set_, [this] { return PastDeadline(); }, &why);
  if (st == Status::kRunning) st = loop_.Setup(G_, solve_, &why);
  if (st != Status::kRunning) {
    message_ = "redmax: " + why;
    return st;
  }
  ready_ = true;
  iterations_ = 0;
  return Status::kRunning;
}

Status RedmaxSolver::Iterate() {
  if (!ready_) return Status::kFailed;
  // Residual of the dynamics at the current (v, λ_G): r1 = b' + Gᵀλ_G − A' v. Through the bodies
  // on the tree route (Setup checked it reproduces A and J_s): the sparse product of a chain's A
  // is O(n²) where the step is O(n) (003 §3).
  solve_.ApplyOperator(v_, r1_);
  r1_ = op_.rhs() - r1_;
  if (lambda_g_.size() > 0) r1_.noalias() += Gt_ * lambda_g_;
  if (!r1_.allFinite()) {
    message_ = "redmax: non-finite dynamics residual";
    return Status::kDiverged;
  }
  // The first solve stops relative to the whole right-hand side b' + Gᵀλ_G (PCG from the
  // current v, 003 §6), later ones relative to their own residual (refinement).
  double reference = 0.0;
  if (iterations_++ == 0) {
    w_ = op_.rhs();
    if (lambda_g_.size() > 0) w_.noalias() += Gt_ * lambda_g_;
    reference = w_.norm();
  }
  std::string why;
  if (!solve_.Solve(r1_, dv_, &why, reference)) {
    message_ = "redmax: " + why;
    return Status::kFailed;
  }
  if (loop_.rows() > 0) {
    // δλ = S⁻¹(−e_G − G (v + δv0)), then δv = δv0 + A'⁻¹Gᵀ δλ.
    w_ = v_ + dv_;
    r2_.noalias() = -eG_;
    r2_.noalias() -= G_ * w_;
    loop_.SolveInPlace(r2_);
    dv_.noalias() += loop_.Y() * r2_;
    lambda_g_ += r2_;
  }
  v_ += dv_;
  solve_.SoftMultipliers(v_, lambda_s_);
  if (!v_.allFinite() || !lambda_g_.allFinite() || !lambda_s_.allFinite()) {
    message_ = "redmax: non-finite iterate";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

void RedmaxSolver::Current(Vec& v, Vec& lambda) const {
  if (!p_) return;
  v = v_;
  lambda = Vec::Zero(p_->num_rows());
  for (std::size_t k = 0; k < soft_row_.size() && k < static_cast<std::size_t>(lambda_s_.size());
       ++k)
    lambda[soft_row_[k]] = lambda_s_[k];
  for (std::size_t k = 0;
       k < bilateral_row_.size() && k < static_cast<std::size_t>(lambda_g_.size()); ++k)
    lambda[bilateral_row_[k]] = lambda_g_[k];
}

std::vector<std::pair<std::string, double>> RedmaxSolver::Info() const {
  return {{"pcg_iterations", static_cast<double>(solve_.pcg_iterations())},
          {"pcg_iterations_last", static_cast<double>(solve_.pcg_iterations_last())},
          {"schur_rows", static_cast<double>(bilateral_.size())},
          {"schur_rank", static_cast<double>(loop_.rank())},
          {"soft_rows", static_cast<double>(soft_.size())},
          {"tree_operator", solve_.tree_operator() ? 1.0 : 0.0},
          {"factorizations", static_cast<double>(solve_.factorizations() + (loop_.rows() > 0))}};
}

SolverStats RedmaxSolver::Stats() const {
  SolverStats s;
  s.inner_iterations = solve_.pcg_iterations();
  s.refactorizations = solve_.factorizations() + (loop_.rows() > 0);
  return s;
}

}  // namespace ncp
