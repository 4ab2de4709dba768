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

}  // namespace ncp
