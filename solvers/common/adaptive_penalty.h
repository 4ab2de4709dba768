// The residual-balancing penalty rule of 004:43, shared by the ADMM-type solvers:
//   β ← β √(θ_p/θ_d)  when θ_p > γ θ_d or θ_d > γ θ_p,
// with each step bounded to a factor of 10 and β kept within 1e±8 of its start, so that a single
// noisy residual ratio cannot make A + β JᵀJ numerically singular.
#pragma once

#include <algorithm>
#include <cmath>

namespace ncp {

// Returns the factor to multiply β by (relative to its initial value, `scale` is the current
// multiple), or 1 when the residuals are balanced within γ.
inline double AdaptedPenaltyScale(double theta_p, double theta_d, double gamma, double scale) {
  if (!(theta_p > 0) || !(theta_d > 0)) return scale;
  if (theta_p <= gamma * theta_d && theta_d <= gamma * theta_p) return scale;
  const double factor = std::clamp(std::sqrt(theta_p / theta_d), 0.1, 10.0);
  return std::clamp(scale * factor, 1e-8, 1e8);
}

// 004:43 with a back-off: β may change every `every` iterations, and each change that reverses
// the previous one doubles that spacing. Balancing alone can flip β back and forth for ever: on
// bolt-nut cases β cycled 3.7 ↔ 60 every ~10 iterations while both residuals grew 3× per cycle,
// from 1e-7 to 1e-2. With the spacing doubling at each reversal the changes die out and the
// fixed-β convergence of ADMM takes over; a β that only needs to move one way is not slowed.
class PenaltyAdapter {
 public:
  void Reset(double gamma, int every) {
    gamma_ = gamma;
    spacing_ = std::max(1, every);
    next_ = spacing_;
    last_dir_ = 0;
  }
  // The scale after iteration `iter` (1-based) with residuals θ_p, θ_d.
  double Update(int iter, double theta_p, double theta_d, double scale) {
    if (iter < next_) return scale;
    const double next = AdaptedPenaltyScale(theta_p, theta_d, gamma_, scale);
    if (next == scale) return scale;
    const int dir = next > scale ? 1 : -1;
    if (last_dir_ != 0 && dir != last_dir_ && spacing_ < (1 << 20)) spacing_ *= 2;
    last_dir_ = dir;
    next_ = iter + spacing_;
    return next;
  }

 private:
  double gamma_ = 10.0;
  int spacing_ = 1, next_ = 1, last_dir_ = 0;
};

}  // namespace ncp
