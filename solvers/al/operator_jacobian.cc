#include "solvers/al/operator_jacobian.h"

#include <cmath>
#include "common/error.h"

namespace ncp {
namespace {

// Proximal (Euclidean) projection onto K_μ: open / stick / slip branches of 004:23.
void ProximalJacobian(double mu, const double* x, Mat3r& D) {
  const double n = x[0], tn = std::hypot(x[1], x[2]);
  D.setZero();
  if (mu * tn <= -n) return;  // open: polar cone (tested first, see ProjectProximal)
  if (tn <= mu * n) {         // stick: inside the cone
    D.setIdentity();
    return;
  }
  if (tn == 0.0) return;
  const Eigen::Vector2d tb(x[1] / tn, x[2] / tn);
  const double k = 1.0 / (1.0 + mu * mu);
  const Eigen::Matrix2d P = Eigen::Matrix2d::Identity() - tb * tb.transpose();
  D(0, 0) = k;
  D.block<1, 2>(0, 1) = k * mu * tb.transpose();
  D.block<2, 1>(1, 0) = k * mu * tb;
  D.block<2, 2>(1, 1) = k * (mu * mu * Eigen::Matrix2d::Identity() + mu * n / tn * P);
}

// Strict operator (004:14–16): normal clamp, then radial clamp of the tangent to μ λ_n.
void StrictJacobian(double mu, const double* x, Mat3r& D) {
  D.setZero();
  if (x[0] <= 0.0) return;  // open
  const double tn = std::hypot(x[1], x[2]), r = mu * x[0];
  D(0, 0) = 1.0;
  if (tn <= r) {
    D(1, 1) = D(2, 2) = 1.0;
    return;
  }
  // λ_t = μ x_n t/‖t‖: derivative in x_n and in t (not symmetric).
  const Eigen::Vector2d tb(x[1] / tn, x[2] / tn);
  D.block<2, 1>(1, 0) = mu * tb;
  D.block<2, 2>(1, 1) = r / tn * (Eigen::Matrix2d::Identity() - tb * tb.transpose());
}

}  // namespace

void OperatorJacobian(const Constraint& c, double beta, const double* x, ConeOperator cone,
                      Mat3r& D) {
  switch (c.type) {
    case ConstraintType::kContact:
      if (cone == ConeOperator::kProximal)
        ProximalJacobian(c.mu, x, D);
      else
        StrictJacobian(c.mu, x, D);
      return;
    case ConstraintType::kUnilateral:
      D.setZero();
      D(0, 0) = x[0] > 0.0 ? 1.0 : 0.0;
      return;
    case ConstraintType::kBilateral:
      D.setZero();
      D(0, 0) = 1.0;
      return;
    case ConstraintType::kSoft:
      D.setZero();
      D(0, 0) = c.damping / (c.damping + beta);
      return;
    case ConstraintType::kJointFriction:  // refused before Setup (NotApplicableReason)
      throw Error("joint-friction constraint: not handled by this solver");
  }
}

double OperatorPotential(const Constraint& c, double beta, const double* x, const double* e) {
  double y[3];
  switch (c.type) {
    case ConstraintType::kContact:
      ProjectProximal(c.mu, x, y);
      return 0.5 * (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    case ConstraintType::kUnilateral:
      return x[0] > 0 ? 0.5 * x[0] * x[0] : 0.0;
    case ConstraintType::kBilateral:
      return 0.5 * x[0] * x[0];
    case ConstraintType::kSoft: {  // T(x) = a x + c0 (see constraint_operator.h)
      const double a = c.damping / (c.damping + beta);
      const double c0 = beta * (c.damping - c.stiffness) * e[0] / (c.damping + beta);
      return 0.5 * a * x[0] * x[0] + c0 * x[0];
    }
    case ConstraintType::kJointFriction:  // refused before Setup (NotApplicableReason)
      throw Error("joint-friction constraint: not handled by this solver");
  }
  return 0.0;
}

}  // namespace ncp
