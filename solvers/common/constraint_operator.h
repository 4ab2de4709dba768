// The closed-form operator T of 004:18 for every constraint type: given the trial multiplier
// λ* = −β J_i v̂ − u_i − β e_i, returns λ_i. Shared by the evaluator (res004, β = 1) and by the
// ADMM-type solvers.
#pragma once

#include "problems/model/contact_problem.h"
#include "solvers/common/cone.h"

namespace ncp {

enum class ConeOperator { kStrict, kProximal };

// x: trial multiplier (rows of the constraint); e: bias rows; y: result.
inline void ApplyConstraintOperator(const Constraint& c, double beta, const double* x,
                                    const double* e, double* y,
                                    ConeOperator cone = ConeOperator::kStrict) {
  switch (c.type) {
    case ConstraintType::kContact:
      if (cone == ConeOperator::kStrict)
        ProjectStrict(c.mu, x, y);
      else
        ProjectProximal(c.mu, x, y);
      return;
    case ConstraintType::kUnilateral:
      y[0] = x[0] > 0.0 ? x[0] : 0.0;
      return;
    case ConstraintType::kBilateral:
      y[0] = x[0];
      return;
    case ConstraintType::kSoft:
      // 004:15 rewritten in λ*: λ = (d λ* + d β e − β k e) / (d + β).
      y[0] = (c.damping * x[0] + beta * (c.damping - c.stiffness) * e[0]) / (c.damping + beta);
      return;
  }
}

}  // namespace ncp
