// Runs a global-form (primal) solver on local (W, q) problems through their lifted form
// (lifted_local.h). Global problems pass through unchanged: every call is delegated, so the
// iterates are those of the wrapped solver bit for bit.
//
// On a local problem the lifted form represents only L_r L_rᵀ ≈ W_s, while results are measured
// on W as stored. When W is not exactly symmetric, the bias is corrected for what the lifted form
// misses, e = q + (W − L_r L_rᵀ) λ_k (the skew part (W − Wᵀ)/2 and the truncation), so that
// u = L_r L_rᵀ λ + e equals W λ + q at λ = λ_k: every kCorrectEvery iterations, when the inner
// solver's natural-map residual on the lifted problem has fallen below kCorrectRatio times the
// one on W, e is updated at the current λ and the inner solver is set up again, warm-started
// from its (v, λ). W symmetric up to rounding (kSymmetricAsymmetry) is not corrected.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solvers/common/lifted_local.h"
#include "solvers/solver.h"

namespace ncp {

class LiftedSolver : public Solver {
 public:
  // Lifted residual below this fraction of the residual on W: the bias is what limits progress.
  static constexpr double kCorrectRatio = 0.1;
  // Asymmetry at or below this is rounding of a symmetric export (double: ~1e-16): uncorrected.
  static constexpr double kSymmetricAsymmetry = 1e-12;
  // Inner iterations between two corrections: each one sets the inner solver up again, and on a
  // rank-deficient W the lifted residual can fall below the ratio at once after a correction.
  static constexpr int kCorrectEvery = 10;

  explicit LiftedSolver(std::unique_ptr<Solver> inner) : inner_(std::move(inner)) {}
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  // Local problems: λ (m rows) and an empty v, since the lifted v has no physical meaning.
  void Current(Vec& v, Vec& lambda) const override;
  // The inner solver's counters, plus lifted_rank, lifted_truncation, lifted_asymmetry and
  // lifted_corrections (bias updates) on local problems.
  std::vector<std::pair<std::string, double>> Info() const override;
  // The inner solver's stats; its counts carry over the set-ups of bias corrections, which
  // would otherwise restart them.
  SolverStats Stats() const override;
  // The inner solver's work, carried over the set-ups of bias corrections; the wrapper's own
  // residual checks on W are not counted.
  WorkCount Work() const override;
  int ThreadsUsed() const override { return inner_->ThreadsUsed(); }
  void SetDeadline(std::chrono::steady_clock::time_point t) override {
    Solver::SetDeadline(t);
    inner_->SetDeadline(t);
  }
  // The wrapped solver itself (e.g. to compare iterates with and without the wrapper).
  Solver& inner() { return *inner_; }

 private:
  // Copies the inner solver's message, prefixed on local problems so that the reason is clear.
  Status Forward(Status st);
  // Natural-map residual ‖F_nat(λ, u)‖² over the contacts of the local problem (as the harness
  // measures it: Siconos' r − Π_K(r − (u + μ‖u_t‖e_n))).
  double NatmapSquared(const Vec& lambda, const Vec& u) const;
  // Updates e at the current λ and sets the inner solver up again (allocates).
  Status Correct();

  std::unique_ptr<Solver> inner_;
  const ContactProblem* local_ = nullptr;  // null: a global problem, passed through
  LiftedLocal lifted_;  // owned here: the inner solver keeps a pointer to lifted_.problem
  Settings settings_;
  bool correct_ = false;  // W not exactly symmetric
  WarmStart state_;       // the inner solver's (v, λ)
  Vec Jt_lambda_, u_lift_, u_orig_;
  int corrections_ = 0;
  int since_correction_ = 0;
  SolverStats carried_;  // the inner counts before the last correction (−1: none)
  WorkCount carried_work_{0.0, 0.0};
};

}  // namespace ncp
