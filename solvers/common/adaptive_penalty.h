// The residual-balancing penalty rule of 004:43, shared by the ADMM-type solvers:
//   β ← β √(θ_p/θ_d)  when θ_p > γ θ_d or θ_d > γ θ_p,
// with each step bounded to a factor of 10.
//
// θ_p is a velocity and θ_d an impulse, so their ratio carries the problem's mass unit and the
// balance point of 004:43 moves with it: on the shipped cable (links of 2e-4 kg, inertias of
// 1e-9) θ_p/θ_d ≈ 1e5 at the start, β climbs ×10 per iteration from 3.5e-8 to 2e-2 while a fixed
// β = 1e-6 converges and any β ≥ 1e-4 makes res004 rise 100–1000×. The default rule (kRelative)
// therefore balances the residuals relative to their own scales, θ_p/max(‖J v̂‖, ‖z‖) against
// θ_d/max(‖A v̂‖, ‖b‖, ‖Jᵀλ‖) (Boyd et al. 2011 §3.4.1; Wohlberg 2017), which is unit-free; it
// changes β by at most 2× per step, at most every 10 iterations and not in the first 20, keeps
// it within 1e±6 of its start (itself from the problem's scale), and undoes a change after which
// the relative residuals grew more than 10× (kPaper keeps 004:43 as published: 10× per
// iteration, 1e±8).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/settings.h"
#include "solvers/settings_table.h"

namespace ncp {

// Effective mass of each constraint, m_i = 1/max_{r∈i} Σ_j J_rj²/A_jj: the inverse of the
// largest diagonal entry of J diag(A)⁻¹ Jᵀ, the Jacobi estimate of the Delassus operator W on
// its rows. It has β's unit whatever the dofs are, where the pseudo-density A_jj/rows of
// 004 §VI-D mixes translations and rotations: on the cable m_i spans 5e-10 (a link's twist,
// inertia 1e-9) to 2e-4 (a contact on a link of 2e-4 kg), geometric mean 4e-6, while the
// density rule gives 3.5e-8 for every row. 0 where a constraint touches no dof with A_jj > 0.
inline std::vector<double> ConstraintEffectiveMasses(const ContactProblem& p) {
  std::vector<double> w(p.num_rows(), 0.0);
  for (int j = 0; j < p.J.outerSize(); ++j) {
    const double ajj = p.A.coeff(j, j);
    if (!(ajj > 0) || !std::isfinite(ajj)) continue;
    for (SpMat::InnerIterator it(p.J, j); it; ++it) w[it.row()] += it.value() * it.value() / ajj;
  }
  std::vector<double> m(p.num_constraints(), 0.0);
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    double most = 0.0;
    for (int k = 0; k < c.rows(); ++k) most = std::max(most, w[c.row + k]);
    m[i] = most > 0 && std::isfinite(most) ? 1.0 / most : 0.0;
  }
  return m;
}

// The penalty a constraint starts from, as a fraction of its effective mass. β_i = m_i makes the
// first λ-step a full projected Jacobi step, which overshoots by up to the number of
// constraints coupled with i: res004 rose 11–18× in the first iterations on soft_mat and 10.5×
// on laikago frames; a tenth keeps that under 2× and 6.3×, and the balancing raises β where the
// primal residual dominates (the cable ends at 14 m_i).
inline constexpr double kMassFraction = 0.1;

// Geometric mean of the positive entries, or 1 when there are none.
inline double GeometricMeanPositive(const std::vector<double>& x) {
  double log_sum = 0.0;
  int count = 0;
  for (double v : x)
    if (v > 0) log_sum += std::log(v), ++count;
  const double g = count ? std::exp(log_sum / count) : 1.0;
  return std::isfinite(g) && g > 0 ? g : 1.0;
}

enum class PenaltyRule { kRelative = 0, kPaper = 1 };
inline constexpr auto kPenaltyRules = ChoiceNames<PenaltyRule>(
    {{PenaltyRule::kRelative, "relative"}, {PenaltyRule::kPaper, "paper"}});

// The adaptation's settings of a solver's table, in this order wherever they appear: the rule
// (`balance`), the imbalance ratio γ and the interval between changes (`refactorizes`: what a
// change costs). S has the members balance, gamma and adapt_every.
template <typename S>
void AddAdaptation(SettingsTable<S>& t, const char* refactorizes) {
  t.template Choice<kPenaltyRules>(
       &S::balance, "balance",
       "β adaptation: relative = 004:43 on residuals relative to their scales, steps of at most 2× "
       "every 10 iterations from iteration 20, a change that makes them grow 10× undone; paper = "
       "004:43 on the raw residuals, 10× steps (unit-dependent: can drive β far from the "
       "problem's scale)")
      .Real(&S::gamma, "gamma", {.min = 1.0, .max = 1e6, .min_open = true},
            "imbalance ratio γ > 1 of 004:43")
      .Int(&S::adapt_every, "adapt_every", {.min = 1.0, .max = 1e6},
           std::string("iterations between β changes, doubled at each reversal (each change "
                       "refactorizes") +
               refactorizes + ")");
}

// Returns the factor to multiply β by (relative to its initial value, `scale` is the current
// multiple), or `scale` when the residuals are balanced within γ.
inline double AdaptedPenaltyScale(double theta_p, double theta_d, double gamma, double scale,
                                  double bound = 1e8, double step = 10.0) {
  if (!(theta_p > 0) || !(theta_d > 0)) return scale;
  if (theta_p <= gamma * theta_d && theta_d <= gamma * theta_p) return scale;
  const double factor = std::clamp(std::sqrt(theta_p / theta_d), 1.0 / step, step);
  return std::clamp(scale * factor, 1.0 / bound, bound);
}

// 004:43 with a back-off: β may change every `every` iterations, and each change that reverses
// the previous one doubles that spacing. Balancing alone can flip β back and forth for ever: on
// bolt-nut cases β cycled 3.7 ↔ 60 every ~10 iterations while both residuals grew 3× per cycle,
// from 1e-7 to 1e-2. With the spacing doubling at each reversal the changes die out and the
// fixed-β convergence of ADMM takes over; a β that only needs to move one way is not slowed.
class PenaltyAdapter {
 public:
  void Reset(double gamma, int every, PenaltyRule rule = PenaltyRule::kPaper) {
    gamma_ = gamma;
    rule_ = rule;
    spacing_ = std::max(rule == PenaltyRule::kRelative ? kWatch : 1, every);
    // kRelative: the first iterations' residuals say more about the starting point (z⁰ = J v⁰)
    // than about β; on laikago frames adapting from iteration 1 doubled the rise of res004.
    next_ = rule == PenaltyRule::kRelative ? std::max(spacing_, kWarmup) : spacing_;
    last_dir_ = 0;
    watch_ = false;
  }
  PenaltyRule rule() const { return rule_; }
  // Whether Update at iteration `iter` may look at the residuals (the caller computes the
  // scales of kRelative only then).
  bool Due(int iter) const { return iter >= next_ || watch_; }
  // The scale after iteration `iter` (1-based) with residuals θ_p, θ_d and their scales (used by
  // kRelative only; 0 when unknown).
  double Update(int iter, double theta_p, double theta_d, double p_scale, double d_scale,
                double scale) {
    if (rule_ == PenaltyRule::kPaper) return Step(iter, theta_p, theta_d, scale, 1e8, 10.0);
    const double rp = p_scale > 0 ? theta_p / p_scale : theta_p;
    const double rd = d_scale > 0 ? theta_d / d_scale : theta_d;
    if (!std::isfinite(rp) || !std::isfinite(rd)) return scale;
    const double merit = std::max(rp, rd);
    if (watch_) {
      // Safeguard: a change after which the residuals grew 10× is undone, and the spacing
      // doubled so that the rule does not retry it at once.
      if (merit > 10.0 * watch_merit_) {
        watch_ = false;
        if (spacing_ < (1 << 20)) spacing_ *= 2;
        next_ = iter + spacing_;
        last_dir_ = 0;
        return watch_scale_;
      }
      if (iter >= watch_until_) watch_ = false;
      if (iter < next_) return scale;
    }
    const double next = Step(iter, rp, rd, scale, kRelativeBound, kRelativeStep);
    if (next != scale) {
      // A chain of changes is judged against the residuals before its first one.
      watch_merit_ = watch_ ? std::min(watch_merit_, merit) : merit;
      watch_ = true;
      watch_scale_ = scale;
      watch_until_ = iter + std::max(spacing_, kWatch);
    }
    return next;
  }
  // 004:43 on the raw residuals (kPaper's rule).
  double Update(int iter, double theta_p, double theta_d, double scale) {
    return Update(iter, theta_p, theta_d, 0.0, 0.0, scale);
  }

 private:
  double Step(int iter, double theta_p, double theta_d, double scale, double bound, double step) {
    if (iter < next_) return scale;
    const double next = AdaptedPenaltyScale(theta_p, theta_d, gamma_, scale, bound, step);
    if (next == scale) return scale;
    const int dir = next > scale ? 1 : -1;
    if (last_dir_ != 0 && dir != last_dir_ && spacing_ < (1 << 20)) spacing_ *= 2;
    last_dir_ = dir;
    next_ = iter + spacing_;
    return next;
  }

  static constexpr double kRelativeStep = 2.0;  // τ of Boyd et al. 2011 (3.13)
  // β within 1e±6 of its start: on the lifted fclib local_problem_test the balance point is
  // 500× the effective-mass start (a bound of 1e3 left natmap_rel at 9e-7 after 5000
  // iterations; converged to 1e-9 in 918 with this one).
  static constexpr double kRelativeBound = 1e6;
  static constexpr int kWatch = 10;   // iterations between changes, and under watch, at least
  static constexpr int kWarmup = 20;  // iterations before the first change
  double gamma_ = 10.0;
  PenaltyRule rule_ = PenaltyRule::kPaper;
  int spacing_ = 1, next_ = 1, last_dir_ = 0;
  // The last change under watch (kRelative): the merit and scale before it, until when.
  bool watch_ = false;
  double watch_merit_ = 0.0, watch_scale_ = 1.0;
  int watch_until_ = 0;
};

}  // namespace ncp
