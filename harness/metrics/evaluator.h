// The harness evaluator: every metric of DESIGN.md from a solver's (v, λ) and the problem only,
// identically for every solver. Contact metrics use the projected velocity
// v̂ = A⁻¹(b + Jᵀλ) (004 §VII), so dual and primal-dual solvers compare fairly; dyn, primal and
// dual use the solver's own v. On local (W, q) problems u = W λ + q and the metrics that need
// A are NaN (not applicable).
#pragma once

#include <memory>

#include "harness/metrics/metrics.h"
#include "problems/linalg/cholmod_llt.h"
#include "problems/model/contact_problem.h"

namespace ncp {

class Evaluator {
 public:
  // Factorizes A once (throws ncp::Error when A is not SPD).
  explicit Evaluator(const ContactProblem& p);
  const ContactProblem& problem() const { return p_; }
  Metrics Evaluate(const Vec& v, const Vec& lambda) const;
  // u = J v̂ + e with v̂ = A⁻¹(b + Jᵀλ), or W λ + q for local problems.
  Vec ConstraintVelocity(const Vec& lambda) const;
  // 004 §VII's contact residual: res004 over the contacts only (Σ_i ‖J_i v̂ − z_i‖ / contacts).
  // res004 also counts the other rows, e.g. the soft PD rows that drive our robots' joints.
  double ContactRes004(const Vec& lambda) const;
  // res004 alone (Evaluate's kRes004, NaN for a λ of the wrong size or not finite): the
  // harness' tolerance test between trace points, without the other metrics' cost.
  double Res004(const Vec& lambda) const;
  double q_norm() const { return q_norm_; }

 private:
  double MeanResidual(const Vec& lambda, bool contacts_only) const;

  const ContactProblem& p_;
  std::unique_ptr<CholmodLLT> chol_;
  double q_norm_ = 0.0;
};

// Per-constraint pieces, exposed for tests.
double NatmapErrorSquared(const Constraint& c, const double* lam, const double* u, const double* e);
double FischerBurmeisterError(const Constraint& c, const double* lam, const double* u,
                              const double* e);

}  // namespace ncp
