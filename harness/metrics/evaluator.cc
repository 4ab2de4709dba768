#include "harness/metrics/evaluator.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "common/error.h"
#include "problems/math/cone.h"
#include "problems/math/constraint_operator.h"

namespace ncp {
namespace {

// fb_aa's floor of a constraint's error: 16 digits at most.
constexpr double kFbFloor = 1e-16;

// Scalar Fischer–Burmeister a + b − √(a² + b²), without the cancellation of its two terms when
// a, b > 0 (rationalized: 2ab / (a + b + √(a² + b²))); positively homogeneous, so computed on
// a, b scaled to a largest magnitude of 1: the product 2ab neither overflows nor underflows.
double Fb(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return a + b - std::hypot(a, b);  // NaN or ±∞
  const double m = std::max(std::abs(a), std::abs(b));
  if (m == 0.0) return 0.0;
  a /= m, b /= m;
  const double r = std::hypot(a, b);
  return m * (a + b > 0 ? 2.0 * a * b / (a + b + r) : a + b - r);
}

// Jordan-algebra Fischer–Burmeister function of the second-order cone,
// φ(x, y) = x + y − (x∘x + y∘y)^{1/2}; returns ‖φ‖. With w = x∘x + y∘y = (w₀, w̄), the square root
// takes √ of w's eigenvalues w₀ ± ‖w̄‖. The small one, w₀ − ‖w̄‖, was computed as that difference:
// near a solution with ‖x‖ ≫ ‖y‖ (a loaded sliding contact) both terms are ~‖x‖² and the
// difference kept only ε‖x‖², so ‖φ‖ stalled at √ε‖x‖ (1e-4 where the exact value is 1e-12). It is
// formed here from differences that lose nothing:
//   w₀ − ‖w̄‖ = (|x₀| − ‖x̄‖)² + (|y₀| − ‖ȳ‖)² + 2(a − ‖v‖),   v = x₀x̄ + y₀ȳ, a = |x₀|‖x̄‖ + |y₀|‖ȳ‖,
//   a − ‖v‖ = (a² − ‖v‖²)/(a + ‖v‖),  a² − ‖v‖² = 2|x₀y₀| (‖x̄‖‖ȳ‖ − s x̄·ȳ),  s = sign(x₀y₀),
// the last as (x̄ × ȳ)² / (‖x̄‖‖ȳ‖ + s x̄·ȳ) where s x̄·ȳ > 0. φ is positively homogeneous, so the
// inputs are scaled to a largest entry of 1 first: no square overflows or underflows.
double SocFbNorm(const double* x_in, const double* y_in) {
  double m = 0.0;
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(x_in[k]) || !std::isfinite(y_in[k])) return NAN;
    m = std::max({m, std::abs(x_in[k]), std::abs(y_in[k])});
  }
  if (m == 0.0) return 0.0;
  const double x[3] = {x_in[0] / m, x_in[1] / m, x_in[2] / m};
  const double y[3] = {y_in[0] / m, y_in[1] / m, y_in[2] / m};
  const double xt = std::hypot(x[1], x[2]), yt = std::hypot(y[1], y[2]);
  const double v1 = x[0] * x[1] + y[0] * y[1], v2 = x[0] * x[2] + y[0] * y[2];
  const double vn = std::hypot(v1, v2);
  const double a = std::abs(x[0]) * xt + std::abs(y[0]) * yt;
  const double sdot = (x[0] * y[0] < 0 ? -1.0 : 1.0) * (x[1] * y[1] + x[2] * y[2]);
  const double cross = x[1] * y[2] - x[2] * y[1];
  const double gap = sdot > 0 ? cross * cross / (xt * yt + sdot) : xt * yt - sdot;  // ≥ 0
  const double a2v2 = 2.0 * std::abs(x[0] * y[0]) * gap;
  const double dx = std::abs(x[0]) - xt, dy = std::abs(y[0]) - yt;
  const double small = dx * dx + dy * dy + (a + vn > 0 ? 2.0 * a2v2 / (a + vn) : 0.0);
  const double w0 = x[0] * x[0] + xt * xt + y[0] * y[0] + yt * yt;
  const double s1 = std::sqrt(std::max(0.0, small)), s2 = std::sqrt(w0 + 2.0 * vn);
  double r0 = 0.5 * (s1 + s2), r1 = 0.0, r2 = 0.0;
  if (vn > 0) r1 = 0.5 * (s2 - s1) * v1 / vn, r2 = 0.5 * (s2 - s1) * v2 / vn;
  const double p0 = x[0] + y[0] - r0, p1 = x[1] + y[1] - r1, p2 = x[2] + y[2] - r2;
  return m * std::sqrt(p0 * p0 + p1 * p1 + p2 * p2);
}

double ResidualNorm(const Constraint& c, const double* lam, const double* u, const double* e) {
  double x[3], y[3];
  const int nr = c.rows();
  for (int k = 0; k < nr; ++k) x[k] = lam[k] - u[k];
  ApplyConstraintOperator(c, 1.0, x, e, y);
  double s = 0.0;
  for (int k = 0; k < nr; ++k) s += (lam[k] - y[k]) * (lam[k] - y[k]);
  return std::sqrt(s);
}

// λ_t − clamp(λ_t − u_t, ±μ|λ_n|): zero iff λ_t is the friction of maximal dissipation under the
// joint's normal impulse.
double JointFrictionError(double mu, const double* lam, const double* u) {
  const double bound = mu * std::abs(lam[0]);
  return lam[1] - std::clamp(lam[1] - u[1], -bound, bound);
}

}  // namespace

double NatmapErrorSquared(const Constraint& c, const double* lam, const double* u,
                          const double* e) {
  switch (c.type) {
    case ConstraintType::kContact:
      return NatmapContactSquared(c.mu, lam, u);
    case ConstraintType::kUnilateral: {
      const double d = lam[0] - std::max(0.0, lam[0] - u[0]);
      return d * d;
    }
    case ConstraintType::kBilateral:
      return u[0] * u[0];
    case ConstraintType::kSoft: {  // λ + k e + d J v̂, with J v̂ = u − e
      const double d = lam[0] + c.stiffness * e[0] + c.damping * (u[0] - e[0]);
      return d * d;
    }
    case ConstraintType::kJointFriction: {
      const double d = JointFrictionError(c.mu, lam, u);
      return u[0] * u[0] + d * d;
    }
  }
  return 0.0;
}

double FischerBurmeisterError(const Constraint& c, const double* lam, const double* u,
                              const double* e) {
  switch (c.type) {
    case ConstraintType::kContact: {
      // μ = 0: a frictionless contact, λ_t must vanish (the scaling below would drop λ_n).
      if (c.mu == 0.0) return std::hypot(Fb(lam[0], u[0]), std::hypot(lam[1], lam[2]));
      // Scale K_μ and its dual onto the unit second-order cone: x = (μ r_n, r_t),
      // y = (û_n, μ û_t) with the de Saxcé velocity û.
      const double un = u[0] + c.mu * std::hypot(u[1], u[2]);
      const double x[3] = {c.mu * lam[0], lam[1], lam[2]};
      const double y[3] = {un, c.mu * u[1], c.mu * u[2]};
      return SocFbNorm(x, y);
    }
    case ConstraintType::kUnilateral:
      return std::abs(Fb(lam[0], u[0]));
    case ConstraintType::kBilateral:
      return std::abs(u[0]);
    case ConstraintType::kSoft:
      return std::abs(lam[0] + c.stiffness * e[0] + c.damping * (u[0] - e[0]));
    case ConstraintType::kJointFriction:  // a box, not a cone: its natural map stands in for FB
      return std::hypot(u[0], JointFrictionError(c.mu, lam, u));
  }
  return 0.0;
}

Evaluator::Evaluator(const ContactProblem& p) : p_(p) {
  if (p.form == ProblemForm::kLocal) {
    q_norm_ = p.q.norm();
    return;
  }
  // CHOLMOD's own choice: a small or narrow A gets a simplicial factor, whose solves need no
  // BLAS (OpenBLAS locks its buffer pool on every call, which cost more than such a solve: the
  // tolerance tests solve once an iteration).
  chol_ = std::make_unique<CholmodLLT>();
  SpMat A = p.A;
  A.makeCompressed();
  chol_->Analyze(A);
  if (!chol_->Factorize(A)) throw Error("A: not symmetric positive definite (Cholesky failed)");
  Vec vfree(p.A.rows());
  chol_->Solve(p.b, vfree);
  q_norm_ = (p.J * vfree + p.e).norm();
}

Vec Evaluator::ConstraintVelocity(const Vec& lambda) const {
  if (p_.form == ProblemForm::kLocal) return p_.W * lambda + p_.q;
  const Vec rhs = p_.b + p_.J.transpose() * lambda;
  Vec vhat(rhs.size());
  chol_->Solve(rhs, vhat);
  return p_.J * vhat + p_.e;
}

double Evaluator::MeanResidual(const Vec& lambda, bool contacts_only) const {
  if (lambda.size() != p_.num_rows() || !lambda.allFinite()) return NAN;
  const Vec u = ConstraintVelocity(lambda);
  const Vec e = p_.e.size() == lambda.size() ? p_.e : Vec::Zero(lambda.size());
  double res = 0.0;
  int counted = 0;
  for (const Constraint& c : p_.constraints) {
    if (contacts_only && c.type != ConstraintType::kContact) continue;
    res += ResidualNorm(c, lambda.data() + c.row, u.data() + c.row, e.data() + c.row);
    ++counted;
  }
  return res / std::max(1, counted);
}

double Evaluator::Res004(const Vec& lambda) const { return MeanResidual(lambda, false); }

double Evaluator::ContactRes004(const Vec& lambda) const { return MeanResidual(lambda, true); }

Metrics Evaluator::Evaluate(const Vec& v, const Vec& lambda) const {
  Metrics m;
  const int rows = p_.num_rows();
  if (lambda.size() != rows || !lambda.allFinite()) return m;  // all NaN: nothing to measure
  const Vec u = ConstraintVelocity(lambda);
  const Vec e = p_.e.size() == rows ? p_.e : Vec::Zero(rows);
  double res = 0, nat2 = 0, fb2 = 0, aa = 0, pen = 0, cone = 0, compl_ = 0, diss = 0;
  for (const Constraint& c : p_.constraints) {
    const double* l = lambda.data() + c.row;
    const double* uc = u.data() + c.row;
    const double* ec = e.data() + c.row;
    res += ResidualNorm(c, l, uc, ec);
    nat2 += NatmapErrorSquared(c, l, uc, ec);
    const double fb = FischerBurmeisterError(c, l, uc, ec);
    fb2 += fb * fb;
    aa += -std::log10(std::max(fb, kFbFloor));
    if (c.type == ConstraintType::kContact || c.type == ConstraintType::kUnilateral) {
      pen = std::max(pen, -uc[0]);
      compl_ = std::max(compl_, std::abs(l[0] * uc[0]));
      cone = std::max(cone, -l[0]);
    }
    if (c.type == ConstraintType::kContact) {
      const double tn = std::hypot(l[1], l[2]), utn = std::hypot(uc[1], uc[2]);
      cone = std::max(cone, tn - c.mu * l[0]);
      // Maximal dissipation: λ_t minimizes λ_t·u_t over the disk of radius μλ_n, i.e.
      // μ λ_n ‖u_t‖ + λ_t·u_t = 0; continuous also where u_t → 0.
      diss =
          std::max(diss, std::abs(c.mu * std::max(l[0], 0.0) * utn + l[1] * uc[1] + l[2] * uc[2]));
    }
    if (c.type == ConstraintType::kJointFriction) {
      cone = std::max(cone, std::abs(l[1]) - c.mu * std::abs(l[0]));
      diss = std::max(diss, std::abs(c.mu * std::abs(l[0]) * std::abs(uc[1]) + l[1] * uc[1]));
    }
  }
  const int nc = std::max(1, p_.num_constraints());
  m[Metric::kRes004] = res / nc;
  const double nat = std::sqrt(nat2);
  m[Metric::kNatmapAbs] = nat;
  m[Metric::kNatmapRel] = q_norm_ > DBL_EPSILON ? nat / q_norm_ : nat;
  const double scale = std::max({q_norm_, lambda.norm(), u.norm()});
  m[Metric::kNatmapSiconos] = scale > DBL_EPSILON ? nat / scale : nat;
  m[Metric::kFb] = std::sqrt(fb2);
  // No constraint, no error: the floor's digits, as res004 and natmap are 0 (not 0 digits, which
  // reads as a failed solve).
  m[Metric::kFbAA] = p_.num_constraints() > 0 ? aa / nc : -std::log10(kFbFloor);
  m[Metric::kPenetration] = std::max(pen, 0.0);
  m[Metric::kConeViolation] = std::max(cone, 0.0);
  m[Metric::kComplementarity] = compl_;
  m[Metric::kDissipation] = diss;
  if (p_.form == ProblemForm::kGlobal && v.size() == p_.num_dofs() && v.allFinite()) {
    const Vec dyn = p_.A * v - p_.b - p_.J.transpose() * lambda;
    m[Metric::kDyn] = dyn.norm() / std::max(1.0, p_.b.norm());
    m[Metric::kDual] = dyn.lpNorm<Eigen::Infinity>();
    const Vec us = p_.J * v + p_.e;
    double prim = 0.0;
    for (const Constraint& c : p_.constraints)
      prim = std::max(prim,
                      ResidualNorm(c, lambda.data() + c.row, us.data() + c.row, e.data() + c.row));
    m[Metric::kPrimal] = prim;
  }
  return m;
}

}  // namespace ncp
