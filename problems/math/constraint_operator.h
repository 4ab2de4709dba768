// The closed-form operator T of 004:18 for every constraint type: given the trial multiplier
// λ* = −β J_i v̂ − u_i − β e_i, returns λ_i. Shared by the evaluator (res004, β = 1) and by the
// ADMM-type solvers; the arithmetic is constraint_operator_core.h's.
#pragma once

#include "problems/math/constraint_operator_core.h"
#include "problems/model/contact_problem.h"

namespace ncp {

static_assert(static_cast<int>(ConstraintType::kContact) == kContactCode &&
              static_cast<int>(ConstraintType::kUnilateral) == kUnilateralCode &&
              static_cast<int>(ConstraintType::kBilateral) == kBilateralCode &&
              static_cast<int>(ConstraintType::kSoft) == kSoftCode &&
              static_cast<int>(ConstraintType::kJointFriction) == kJointFrictionCode);

// x: trial multiplier (rows of the constraint); e: bias rows; y: result.
inline void ApplyConstraintOperator(const Constraint& c, double beta, const double* x,
                                    const double* e, double* y,
                                    ConeOperator cone = ConeOperator::kStrict) {
  ApplyConstraintOperator(static_cast<unsigned char>(c.type), c.mu, c.stiffness, c.damping, beta, x,
                          e, y, cone);
}

}  // namespace ncp
