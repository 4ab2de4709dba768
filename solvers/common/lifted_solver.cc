#include "solvers/common/lifted_solver.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "problems/math/cone.h"
#include "solvers/common/work_count.h"

namespace ncp {

namespace {
constexpr int SolverStats::*kStatCounts[] = {&SolverStats::inner_iterations,
                                             &SolverStats::refactorizations,
                                             &SolverStats::line_search_steps};
}  // namespace

Status LiftedSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  local_ = nullptr;
  correct_ = false;
  corrections_ = 0;
  since_correction_ = 0;
  carried_ = {};
  carried_work_ = {0.0, 0.0};
  if (p.form != ProblemForm::kLocal) {
    lifted_ = LiftedLocal{};
    return Forward(inner_->Setup(p, s, warm));
  }
  if (std::string why = BuildLiftedLocal(p, lifted_); !why.empty()) {
    message_ = "lifted local form: " + why;
    return Status::kNotApplicable;
  }
  local_ = &p;
  settings_ = s;
  correct_ = lifted_.asymmetry > kSymmetricAsymmetry;
  const int m = lifted_.rows, r = lifted_.rank;
  state_.lambda = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  state_.v = lifted_.problem.J.transpose() * state_.lambda;  // v̂ = A⁻¹(b + Jᵀλ)
  Jt_lambda_ = Vec::Zero(r), u_lift_ = Vec::Zero(m), u_orig_ = Vec::Zero(m);
  return Forward(inner_->Setup(lifted_.problem, s, &state_));
}

Status LiftedSolver::Forward(Status st) {
  if (local_ == nullptr || st == Status::kRunning) {
    message_ = inner_->message();
  } else {
    message_ = fmt::format(
        "lifted local form (A = I_{}, J = L of W's symmetric part, b = 0, no structure layer): {}",
        lifted_.rank, inner_->message());
  }
  return st;
}

double LiftedSolver::NatmapSquared(const Vec& lambda, const Vec& u) const {
  double s = 0.0;
  for (const Constraint& c : local_->constraints) {
    if (c.type != ConstraintType::kContact) continue;  // fclib local problems: contacts only
    s += NatmapContactSquared(c.mu, lambda.data() + c.row, u.data() + c.row);
  }
  return s;
}

Status LiftedSolver::Iterate() {
  const Status st = inner_->Iterate();
  if (st != Status::kRunning) return Forward(st);
  if (local_ == nullptr) return st;  // no string copy while running: Iterate() must not allocate
  if (!correct_ || ++since_correction_ < kCorrectEvery) return st;
  // Residual of the current λ on the lifted problem and on W as stored.
  inner_->Current(state_.v, state_.lambda);
  const ContactProblem& g = lifted_.problem;
  Jt_lambda_.noalias() = g.J.transpose() * state_.lambda;
  u_lift_.noalias() = g.J * Jt_lambda_;
  u_lift_ += g.e;
  u_orig_.noalias() = local_->W * state_.lambda;
  u_orig_ += local_->q;
  const double r_lift = NatmapSquared(state_.lambda, u_lift_);
  const double r_orig = NatmapSquared(state_.lambda, u_orig_);
  if (!std::isfinite(r_lift) || !std::isfinite(r_orig)) {
    message_ = "lifted local form: non-finite natural-map residual (non-finite iterate)";
    return Status::kDiverged;
  }
  // Squared residuals: ratio². Below rounding of q there is nothing left to correct.
  const double floor = 1e-30 * local_->q.squaredNorm();
  if (r_orig > floor && r_lift < kCorrectRatio * kCorrectRatio * r_orig) return Correct();
  return st;
}

Status LiftedSolver::Correct() {
  // e = q + (W − L Lᵀ) λ = e_old + (W λ + q) − (L Lᵀ λ + e_old). Setting the inner solver up
  // again allocates; it happens only for a non-symmetric W (correct_), never for a symmetric one.
  lifted_.problem.e += u_orig_ - u_lift_;
  const SolverStats before = inner_->Stats();
  for (int SolverStats::*count : kStatCounts)
    if (before.*count >= 0) carried_.*count = std::max(carried_.*count, 0) + before.*count;
  carried_work_ = carried_work_ + inner_->Work();
  ++corrections_;
  since_correction_ = 0;
  return Forward(inner_->Setup(lifted_.problem, settings_, &state_));
}

void LiftedSolver::Current(Vec& v, Vec& lambda) const {
  if (local_ == nullptr) {
    inner_->Current(v, lambda);
    return;
  }
  Vec lifted_v;
  inner_->Current(lifted_v, lambda);
  v.resize(0);
}

WorkCount LiftedSolver::Work() const { return carried_work_ + inner_->Work(); }

SolverStats LiftedSolver::Stats() const {
  SolverStats s = inner_->Stats();
  for (int SolverStats::*count : kStatCounts)
    if (s.*count >= 0 && carried_.*count > 0) s.*count += carried_.*count;
  return s;
}

std::vector<std::pair<std::string, double>> LiftedSolver::Info() const {
  std::vector<std::pair<std::string, double>> info = inner_->Info();
  if (local_ != nullptr) {
    info.emplace_back("lifted_rank", lifted_.rank);
    info.emplace_back("lifted_truncation", lifted_.truncation);
    info.emplace_back("lifted_asymmetry", lifted_.asymmetry);
    info.emplace_back("lifted_corrections", corrections_);
  }
  return info;
}

}  // namespace ncp
