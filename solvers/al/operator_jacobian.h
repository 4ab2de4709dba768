// Generalized Jacobians dλ/dλ* of the per-constraint operators (004:23) and the potential Φ with
// Φ' = T, whose sum makes the convex objective of 004:22 for every constraint type.
// Contact order [n, t1, t2].
#pragma once

#include <Eigen/Core>

#include "problems/math/constraint_operator.h"
#include "problems/model/contact_problem.h"

namespace ncp {

using Mat3r = Eigen::Matrix3d;

// D = dλ/dλ* at trial x (rows × rows block in the top-left of D). `e` is the bias of the row
// (soft rows depend on it only through an offset, so D does not).
void OperatorJacobian(const Constraint& c, double beta, const double* x, ConeOperator cone,
                      Mat3r& D);

// Φ(x) with ∇Φ = T(x): ½‖Π_K(x)‖² for projections (Moreau), ½‖x‖² for bilateral rows, and the
// quadratic of the affine soft operator.
double OperatorPotential(const Constraint& c, double beta, const double* x, const double* e);

}  // namespace ncp
