// The ablations of 004 §VII-D1 (Table II): the same AL loop as canal, but each surrogate is
// 004:19 solved directly — r(v̂) = A v̂ − b − Σ J_iᵀ T_strict(λ*_i) = 0 with the strict
// operator's (non-symmetric) generalized Jacobian A + β Σ J_iᵀ (dT/dλ*) J_i — globalized by
//   al-dampedsn: damped semismooth Newton, Armijo backtracking on ½‖r‖²;
//   al-trdogleg: trust-region dogleg on ½‖r‖² (Newton and Cauchy points).
// An inner failure is a surrogate left above the tolerance after max_newton steps.
#pragma once

#include <Eigen/SparseLU>

#include "solvers/al/al_base.h"
#include "solvers/al/penalized_matrix.h"

namespace ncp {

class AlSemismoothSolver : public AlSolverBase {
 public:
  enum class Globalization { kDampedNewton, kTrustRegionDogleg };
  explicit AlSemismoothSolver(Globalization g) : glob_(g) {}
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;

 private:
  bool Factorize(const Vec& v);  // generalized Jacobian at v (trials of v)
  bool DampedStep(double& rnorm);
  bool DoglegStep(double& rnorm);

  Globalization glob_;
  double radius_ = -1.0;  // trust radius; < 0: not yet set for this surrogate
  PenalizedMatrix G_;
  Eigen::SparseLU<SpMat> lu_;
  std::vector<Mat3r> D_;
  Vec trial_, r_, d_, vtry_, rtry_, g_, Gg_;
};

}  // namespace ncp
