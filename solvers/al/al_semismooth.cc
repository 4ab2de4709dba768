#include "solvers/al/al_semismooth.h"

#include <cmath>

#include "solvers/common/dual_update.h"

namespace ncp {

Status AlSemismoothSolver::Setup(const ContactProblem& p, const Settings& s,
                                 const WarmStart* warm) {
  const char* name = glob_ == Globalization::kDampedNewton ? "al-dampedsn" : "al-trdogleg";
  if (const Status st = SetupAl(p, s, warm, name); st != Status::kRunning) return st;
  G_.Setup(p);
  lu_.analyzePattern(G_.matrix());
  D_.assign(p.constraints.size(), Mat3r::Zero());
  const int n = p.num_dofs(), m = p.num_rows();
  trial_ = Vec::Zero(m);
  for (Vec* x : {&r_, &d_, &vtry_, &rtry_, &g_, &Gg_}) *x = Vec::Zero(n);
  radius_ = -1.0;
  // The dogleg's trial steps are trust-region trials, not a line search: not reported.
  if (glob_ == Globalization::kTrustRegionDogleg) line_search_evaluations_ = -1;
  return Status::kRunning;
}

bool AlSemismoothSolver::Factorize(const Vec& v) {
  const ContactProblem& p = *p_;
  Residual(v, ConeOperator::kStrict, trial_, r_);
  for (std::size_t i = 0; i < p.constraints.size(); ++i)
    OperatorJacobian(p.constraints[i], beta_, trial_.data() + p.constraints[i].row,
                     ConeOperator::kStrict, D_[i]);
  G_.Assemble(beta_, D_);
  ++factorizations_;
  lu_.factorize(G_.matrix());
  return lu_.info() == Eigen::Success;
}

// Damped semismooth Newton: d = −G⁻¹ r, halve α until ½‖r(v + α d)‖² ≤ (1 − 2σα) ½‖r‖².
bool AlSemismoothSolver::DampedStep(double& rnorm) {
  if (!Factorize(v_)) return false;
  d_ = -lu_.solve(r_);
  const double f0 = 0.5 * rnorm * rnorm, sigma = 1e-4;
  double alpha = 1.0;
  for (int k = 0; k < 40; ++k, alpha *= 0.5) {
    vtry_ = v_ + alpha * d_;
    const double rn = Residual(vtry_, ConeOperator::kStrict, trial_, rtry_);
    ++line_search_evaluations_;
    if (0.5 * rn * rn <= (1.0 - 2.0 * sigma * alpha) * f0) {
      v_ = vtry_;
      rnorm = rn;
      return true;
    }
  }
  rnorm = Residual(v_, ConeOperator::kStrict, trial_,
                   r_);  // no decrease: the merit function is stuck here
  return false;
}

// Trust-region dogleg on m(s) = ½‖r + G s‖²: the Newton point when inside the radius, else the
// dogleg path from the Cauchy point; the radius follows the actual/predicted reduction.
bool AlSemismoothSolver::DoglegStep(double& rnorm) {
  if (!Factorize(v_)) return false;
  const Vec sn = -lu_.solve(r_);
  if (radius_ <= 0) radius_ = sn.norm();  // each surrogate starts with the Newton step's length
  g_ = G_.matrix().transpose() * r_;      // ∇ ½‖r‖²
  Gg_ = G_.matrix() * g_;
  const double gg = g_.squaredNorm(), GgGg = Gg_.squaredNorm();
  const Vec sc = GgGg > 0 ? Vec(-(gg / GgGg) * g_) : Vec(Vec::Zero(g_.size()));
  if (sn.norm() <= radius_) {
    d_ = sn;
  } else if (sc.norm() >= radius_) {
    d_ = sc * (radius_ / sc.norm());
  } else {  // sc + τ (sn − sc) with ‖·‖ = radius
    const Vec w = sn - sc;
    const double a = w.squaredNorm(), b = 2 * sc.dot(w), c = sc.squaredNorm() - radius_ * radius_;
    const double tau = (-b + std::sqrt(b * b - 4 * a * c)) / (2 * a);
    d_ = sc + tau * w;
  }
  const double f0 = 0.5 * rnorm * rnorm;
  const double pred = f0 - 0.5 * (r_ + G_.matrix() * d_).squaredNorm();
  vtry_ = v_ + d_;
  const double rn = Residual(vtry_, ConeOperator::kStrict, trial_, rtry_);
  const double rho = pred > 0 ? (f0 - 0.5 * rn * rn) / pred : -1.0;
  if (rho < 0.25)
    radius_ *= 0.25;
  else if (rho > 0.75 && d_.norm() >= 0.99 * radius_)
    radius_ *= 2.0;
  if (rho > 1e-4) {
    v_ = vtry_;
    rnorm = rn;
    return true;
  }
  rnorm = Residual(v_, ConeOperator::kStrict, trial_, r_);
  return radius_ > 1e-14 * std::max(v_unit_, v_.norm());  // below: rounding of v̂
}

Status AlSemismoothSolver::Iterate() {
  double rnorm = Residual(v_, ConeOperator::kStrict, trial_, r_);
  radius_ = -1.0;  // set by the first dogleg step
  int k = 0;
  while (rnorm > InnerTolerance(trial_) && k < max_newton_ && !PastDeadline()) {
    ++k;
    const bool ok = glob_ == Globalization::kDampedNewton ? DampedStep(rnorm) : DoglegStep(rnorm);
    if (!ok) break;
  }
  inner_last_ = k;
  inner_total_ += k;
  inner_residual_ = rnorm;
  if (rnorm > InnerTolerance(trial_)) ++failures_;
  if (!AllFinite(v_) || !AllFinite(lambda_)) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  AlUpdate();
  return Status::kRunning;
}

}  // namespace ncp
