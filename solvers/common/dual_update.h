// Per-constraint projected updates on the dual form, shared by PGS (sequential) and PJ
// (parallel). Soft rows are equality rows after FoldSoftRows.
#pragma once

#include <cmath>

#include "problems/math/cone.h"
#include "solvers/common/dual_problem.h"

namespace ncp {

// Step size of each contact's tangential update: 1/λ_max of its 2×2 tangential block of W.
// The step must be a scalar: with a matrix metric G⁻¹ the fixed point of the disk clamp has
// u_t ∥ −G λ_t instead of the Coulomb condition u_t ∥ −λ_t.
inline void TangentSteps(const DualProblem& d, std::vector<double>& step) {
  const auto& cs = *d.constraints;
  step.assign(cs.size(), 0.0);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (cs[i].type != ConstraintType::kContact) continue;
    const int r = cs[i].row;
    const double a = d.W.coeff(r + 1, r + 1), b = d.W.coeff(r + 1, r + 2),
                 c = d.W.coeff(r + 2, r + 2);
    const double lmax = 0.5 * (a + c) + std::sqrt(0.25 * (a - c) * (a - c) + b * b);
    step[i] = lmax > 0 ? 1.0 / lmax : 0.0;
  }
}

// One-row update for non-contact rows: returns the new λ_r given u_r = (W λ + q)_r.
inline double UpdateScalarRow(ConstraintType t, double lam, double u, double wrr, double omega) {
  const double trial = wrr > 0 ? lam - omega * u / wrr : lam;
  return t == ConstraintType::kUnilateral ? (trial > 0 ? trial : 0.0) : trial;
}

// Tangential row of a joint-friction constraint (ConstraintType::kJointFriction): a projected
// Gauss–Seidel step on the box |λ_t| ≤ μ |λ_n| (003:12), the normal held.
inline double UpdateJointFrictionTangent(double mu, double lam_n, double lam_t, double u_t,
                                         double wtt, double omega) {
  const double trial = wtt > 0 ? lam_t - omega * u_t / wtt : lam_t;
  const double bound = mu * std::abs(lam_n);
  return trial > bound ? bound : (trial < -bound ? -bound : trial);
}

// Tangential part of a contact update: λ_t ← clamp(λ_t − ω h u_t, μ λ_n) (strict operator).
inline void UpdateTangent(double mu, double lam_n, double h, double omega, double u1, double u2,
                          double& l1, double& l2) {
  double x[3] = {lam_n, l1 - omega * h * u1, l2 - omega * h * u2};
  double y[3];
  ProjectStrict(mu, x, y);
  l1 = y[1], l2 = y[2];
}

// (W x)_i for a symmetric column-major W: column i dotted with x.
inline double RowDot(const SpMat& W, int i, const Vec& x) {
  double s = 0.0;
  for (SpMat::InnerIterator it(W, i); it; ++it) s += it.value() * x[it.index()];
  return s;
}

// One projected Gauss–Seidel step of constraint c against the current λ (PGS's sweep, CCS's
// contact step): a contact's normal first, then its tangential pair against the updated normal
// (strict operator); a joint-friction constraint's bilateral row, then its tangent in the box.
[[gnu::always_inline]] inline void GaussSeidelUpdate(const DualProblem& d, const Constraint& c,
                                                     double tangent_step, double omega,
                                                     Vec& lambda) {
  const SpMat& W = d.W;
  const Vec& q = d.q;
  const int r = c.row;
  if (c.type == ConstraintType::kJointFriction) {
    const double un = q[r] + RowDot(W, r, lambda);
    lambda[r] = UpdateScalarRow(ConstraintType::kBilateral, lambda[r], un, d.diag[r], omega);
    const double ut = q[r + 1] + RowDot(W, r + 1, lambda);
    lambda[r + 1] =
        UpdateJointFrictionTangent(c.mu, lambda[r], lambda[r + 1], ut, d.diag[r + 1], omega);
    return;
  }
  if (c.type != ConstraintType::kContact) {
    const double u = q[r] + RowDot(W, r, lambda);
    lambda[r] = UpdateScalarRow(c.type, lambda[r], u, d.diag[r], omega);
    return;
  }
  const double un = q[r] + RowDot(W, r, lambda);
  const double ln = d.diag[r] > 0 ? lambda[r] - omega * un / d.diag[r] : lambda[r];
  lambda[r] = ln > 0 ? ln : 0.0;
  const double u1 = q[r + 1] + RowDot(W, r + 1, lambda);
  const double u2 = q[r + 2] + RowDot(W, r + 2, lambda);
  UpdateTangent(c.mu, lambda[r], tangent_step, omega, u1, u2, lambda[r + 1], lambda[r + 2]);
}

// Below this many rows a parallel region costs more than the work it splits.
constexpr int kParallelRows = 1024;

// Any dense vector expression (a segment too: no copy).
template <typename Derived>
bool AllFinite(const Eigen::DenseBase<Derived>& x, double limit = 1e100) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!(std::abs(x[i]) < limit)) return false;
  return true;
}

}  // namespace ncp
