#include "solvers/nnewton/ncp_function.h"

#include <cmath>
#include "common/error.h"

namespace ncp {
namespace {

// Fischer–Burmeister on (a, b) with the derivative element (1 − a/s, 1 − b/s); at the kink
// a = b = 0 any point of the unit-circle family is valid, (1 − 1/√2) for both is used.
void Fb(double a, double b, double& phi, double& da, double& db) {
  const double s = std::hypot(a, b);
  phi = a + b - s;
  if (s > 0.0) {
    da = 1.0 - a / s;
    db = 1.0 - b / s;
  } else {
    da = db = 1.0 - 1.0 / std::sqrt(2.0);
  }
}

void Contact(double mu, double rho, const double* u, const double* l, double* phi,
             Eigen::Matrix3d* Du, Eigen::Matrix3d* Dl) {
  double da, db;
  Fb(rho * u[0], l[0], phi[0], da, db);
  const double x1 = l[1] - rho * u[1], x2 = l[2] - rho * u[2];
  const double xn = std::hypot(x1, x2), R = mu * std::max(l[0], 0.0);
  const bool inside = xn <= R;
  const double s = inside ? 1.0 : R / xn;  // Π(x) = s x
  phi[1] = l[1] - s * x1;
  phi[2] = l[2] - s * x2;
  if (!Du) return;
  Du->setZero();
  Dl->setZero();
  (*Du)(0, 0) = rho * da;
  (*Dl)(0, 0) = db;
  if (inside) {  // φ_t = ρ u_t
    (*Du)(1, 1) = (*Du)(2, 2) = rho;
    return;
  }
  // φ_t = λ_t − R x/‖x‖: dΠ/dx = (R/‖x‖)(I − x̂x̂ᵀ), dΠ/dλ_n = μ x̂ when λ_n > 0.
  const Eigen::Vector2d xh(x1 / xn, x2 / xn);
  const Eigen::Matrix2d P = s * (Eigen::Matrix2d::Identity() - xh * xh.transpose());
  Dl->block<2, 2>(1, 1) = Eigen::Matrix2d::Identity() - P;
  Du->block<2, 2>(1, 1) = rho * P;
  if (l[0] > 0.0) Dl->block<2, 1>(1, 0) = -mu * xh;
}

}  // namespace

void NcpFunction(const Constraint& c, double rho, const double* u, const double* lambda,
                 const double* e, double* phi, Eigen::Matrix3d* Du, Eigen::Matrix3d* Dl) {
  switch (c.type) {
    case ConstraintType::kContact:
      Contact(c.mu, rho, u, lambda, phi, Du, Dl);
      return;
    case ConstraintType::kUnilateral: {
      double da, db;
      Fb(rho * u[0], lambda[0], phi[0], da, db);
      if (Du) {
        Du->setZero(), Dl->setZero();
        (*Du)(0, 0) = rho * da;
        (*Dl)(0, 0) = db;
      }
      return;
    }
    case ConstraintType::kBilateral:
      phi[0] = rho * u[0];
      if (Du) {
        Du->setZero(), Dl->setZero();
        (*Du)(0, 0) = rho;
      }
      return;
    case ConstraintType::kSoft:
      phi[0] = lambda[0] + c.stiffness * e[0] + c.damping * (u[0] - e[0]);
      if (Du) {
        Du->setZero(), Dl->setZero();
        (*Du)(0, 0) = c.damping;
        (*Dl)(0, 0) = 1.0;
      }
      return;
    case ConstraintType::kJointFriction:  // refused before Setup (NotApplicableReason)
      throw Error("joint-friction constraint: not handled by this solver");
  }
}

}  // namespace ncp
