// The closed-form operator T of 004:18 on plain arrays, keyed by a constraint's type code: the
// one definition that the CPU solvers (through constraint_operator.h) and the CUDA kernels call.
#pragma once

#include "problems/math/cone.h"
#include "problems/math/host_device.h"

namespace ncp {

enum class ConeOperator { kStrict, kProximal };

// The values of ConstraintType (problems/model/contact_problem.h) as bytes, for code that sees no
// model headers (device code); constraint_operator.h checks that they agree.
enum ConstraintCode : unsigned char {
  kContactCode = 0,
  kUnilateralCode = 1,
  kBilateralCode = 2,
  kSoftCode = 3,
  kJointFrictionCode = 4,
};

// x: trial multiplier λ* = −β J_i v̂ − u_i − β e_i (rows of the constraint); e: bias rows;
// y: result λ_i. mu for contacts, stiffness and damping for soft rows.
NCP_HD void ApplyConstraintOperator(unsigned char type, double mu, double stiffness, double damping,
                                    double beta, const double* x, const double* e, double* y,
                                    ConeOperator cone) {
  switch (type) {
    case kContactCode:
      if (cone == ConeOperator::kStrict)
        ProjectStrict(mu, x, y);
      else
        ProjectProximal(mu, x, y);
      return;
    case kUnilateralCode:
      y[0] = x[0] > 0.0 ? x[0] : 0.0;
      return;
    case kBilateralCode:
      y[0] = x[0];
      return;
    case kSoftCode:
      // 004:15 rewritten in λ*: λ = (d λ* + d β e − β k e) / (d + β).
      y[0] = (damping * x[0] + beta * (damping - stiffness) * e[0]) / (damping + beta);
      return;
    case kJointFrictionCode: {
      // n bilateral; t clamped to the box of the trial normal impulse (λ_n itself at a solution,
      // where u_n = 0): zero residual exactly at 003's joint-friction solutions.
      y[0] = x[0];
      const double bound = mu * (x[0] < 0.0 ? -x[0] : x[0]);
      y[1] = x[1] > bound ? bound : (x[1] < -bound ? -bound : x[1]);
      return;
    }
  }
}

}  // namespace ncp
