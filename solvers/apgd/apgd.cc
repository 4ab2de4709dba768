#include "solvers/apgd/apgd.h"

#include <omp.h>

#include <cmath>

#include "problems/math/cone.h"
#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"

namespace ncp {

const SettingsTable<ApgdSettings>& ApgdSettings::Table() {
  static const auto t =
      SettingsTable<ApgdSettings>()
          .Choice<kFrictionModels>(&ApgdSettings::friction_model, "friction_model",
                                   "coulomb: de Saxcé term in the gradient (NCP); ccp: convex "
                                   "relaxation (Mazhar 2015)")
          .Flag(&ApgdSettings::restart, "restart", "1: gradient-based adaptive restart")
          .Real(&ApgdSettings::step_shrink, "step_shrink",
                {.min = 0.0, .max = 1.0, .min_open = true},
                "factor on the Lipschitz estimate after each accepted step (1: never grows the "
                "step)");
  return t;
}

Status ApgdSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = ApgdSettings::Table().From(s);
  if (!SetupDual(p, warm)) return Status::kFailed;
  const int m = dual_.rows();
  Project(lambda_);
  y_ = lambda_;
  for (Vec* v : {&xnew_, &g_, &Wy_, &Wx_, &s_, &diff_}) *v = Vec::Zero(m);
  // Initial Lipschitz estimate: largest diagonal-scaled row sum bounds ‖W‖₂ from above.
  L_ = 0.0;
  for (int k = 0; k < dual_.W.outerSize(); ++k) {
    double row = 0.0;
    for (SpMat::InnerIterator it(dual_.W, k); it; ++it) row += std::abs(it.value());
    L_ = std::max(L_, row);
  }
  if (!(L_ > 0)) L_ = 1.0;
  theta_ = 1.0;
  backtracks_ = restarts_ = ls_evaluations_ = 0;
  return Status::kRunning;
}

void ApgdSolver::Gradient(const Vec& x, Vec& Wx, Vec& g) const {
  const int m = dual_.rows();
#pragma omp parallel for schedule(static) if (m >= kParallelRows)
  for (int r = 0; r < m; ++r) Wx[r] = RowDot(dual_.W, r, x);
  g = Wx + dual_.q;
}

void ApgdSolver::Project(Vec& x) const {
  for (const Constraint& c : *dual_.constraints) {
    double* xr = x.data() + c.row;
    if (c.type == ConstraintType::kContact) {
      const double in[3] = {xr[0], xr[1], xr[2]};
      ProjectProximal(c.mu, in, xr);
    } else if (c.type == ConstraintType::kUnilateral) {
      xr[0] = xr[0] > 0 ? xr[0] : 0.0;
    }
  }
}

double ApgdSolver::Objective(const Vec& x, const Vec& Wx, const Vec& s) const {
  return 0.5 * x.dot(Wx) + x.dot(dual_.q) + x.dot(s);
}

Status ApgdSolver::Iterate() {
  // Gradient at y, with the de Saxcé shift s = μ‖u_t‖ e_n frozen at y for this step.
  Gradient(y_, Wy_, g_);
  s_.setZero();
  if (set_.friction_model == ApgdSettings::FrictionModel::kCoulomb) {
    for (const Constraint& c : *dual_.constraints) {
      if (c.type != ConstraintType::kContact) continue;
      const int r = c.row;
      s_[r] = c.mu * std::hypot(g_[r + 1], g_[r + 2]);
    }
    g_ += s_;
  }
  const double fy = Objective(y_, Wy_, s_);
  for (int tries = 0; tries < 60; ++tries) {
    xnew_ = y_ - g_ / L_;
    Project(xnew_);
    const int m = dual_.rows();
#pragma omp parallel for schedule(static) if (m >= kParallelRows)
    for (int r = 0; r < m; ++r) Wx_[r] = RowDot(dual_.W, r, xnew_);
    diff_ = xnew_ - y_;
    const double bound = fy + g_.dot(diff_) + 0.5 * L_ * diff_.squaredNorm();
    ++ls_evaluations_;
    if (Objective(xnew_, Wx_, s_) <= bound + 1e-14 * std::abs(bound)) break;
    L_ *= 2.0;
    ++backtracks_;
  }
  const double theta_new = 0.5 * (-theta_ * theta_ + theta_ * std::sqrt(theta_ * theta_ + 4.0));
  const double beta = theta_ * (1.0 - theta_) / (theta_ * theta_ + theta_new);
  diff_ = xnew_ - lambda_;
  if (set_.restart && g_.dot(diff_) > 0.0) {  // momentum points uphill: restart from xnew
    y_ = xnew_;
    theta_ = 1.0;
    ++restarts_;
  } else {
    y_ = xnew_ + beta * diff_;
    theta_ = theta_new;
  }
  lambda_ = xnew_;
  L_ *= set_.step_shrink;
  ++iterations_;
  if (!std::isfinite(L_)) {
    message_ = "non-finite step size";
    return Status::kDiverged;
  }
  return CheckFinite();
}

// Per iteration: the gradient's product with W, and the vectors y, W y, g, q, s, diff and λ once
// each (7 passes; the gradient, the shift, the objective's dots, the momentum update and the
// finiteness check make about 20 flops per row). Per line-search trial: another product and the
// trial's own vectors x and W x (2 passes; about 16 flops per row).
WorkCount ApgdSolver::Work() const {
  using namespace work;
  return iterations_ * DualWork(1, 7, 20) + ls_evaluations_ * DualWork(1, 2, 16);
}

std::vector<std::pair<std::string, double>> ApgdSolver::Info() const {
  return {{"backtracks", static_cast<double>(backtracks_)},
          {"restarts", static_cast<double>(restarts_)},
          {"lipschitz", L_}};
}

SolverStats ApgdSolver::Stats() const {
  SolverStats s;
  s.line_search_steps = ls_evaluations_;
  return s;
}

int ApgdSolver::ThreadsUsed() const {
  return dual_.rows() >= kParallelRows ? omp_get_max_threads() : 1;
}

}  // namespace ncp
