// Preconditioned conjugate gradients on an SPD operator, with its workspace allocated once:
// Solve() does not touch the heap. Starts from x = 0 and stops when ‖r‖ ≤ tol · reference
// (reference ≤ 0: ‖rhs‖, the relative residual of 003 §6), at max_iters, on a breakdown
// (pᵀA p ≤ 0: not SPD), or when `stop()` says so (the run's deadline).
#pragma once

#include <cmath>

#include "problems/model/contact_problem.h"

namespace ncp {

class Pcg {
 public:
  enum class End { kConverged, kMaxIterations, kBreakdown, kStopped };
  struct Result {
    End end = End::kConverged;
    int iterations = 0;
    double relative_residual = 0.0;
  };

  void Resize(int n) { r_ = Vec::Zero(n), z_ = Vec::Zero(n), p_ = Vec::Zero(n), q_ = Vec::Zero(n); }

  // op(x, y): y = A x;  prec(r, z): z = P⁻¹ r;  stop(): true to end early.
  template <class Op, class Prec, class Stop>
  Result Solve(Op&& op, Prec&& prec, Stop&& stop, const Vec& rhs, Vec& x, double tol, int max_iters,
               double reference = 0.0) {
    Result res;
    x.setZero();
    const double rhs_norm = reference > 0.0 ? reference : rhs.norm();
    if (rhs.norm() <= tol * rhs_norm || rhs_norm == 0.0) {
      res.relative_residual = rhs_norm > 0.0 ? rhs.norm() / rhs_norm : 0.0;
      return res;
    }
    r_ = rhs;
    prec(r_, z_);
    p_ = z_;
    double rz = r_.dot(z_);
    while (true) {
      if (res.iterations >= max_iters) {
        res.end = End::kMaxIterations;
        break;
      }
      op(p_, q_);
      const double pq = p_.dot(q_);
      if (!(pq > 0.0) || !(rz > 0.0)) {
        res.end = End::kBreakdown;
        break;
      }
      const double alpha = rz / pq;
      x.noalias() += alpha * p_;
      r_.noalias() -= alpha * q_;
      ++res.iterations;
      res.relative_residual = r_.norm() / rhs_norm;
      if (res.relative_residual <= tol) {
        res.end = End::kConverged;
        break;
      }
      if (stop()) {
        res.end = End::kStopped;
        break;
      }
      prec(r_, z_);
      const double rz_next = r_.dot(z_);
      p_ = z_ + (rz_next / rz) * p_;
      rz = rz_next;
    }
    return res;
  }

 private:
  Vec r_, z_, p_, q_;
};

}  // namespace ncp
