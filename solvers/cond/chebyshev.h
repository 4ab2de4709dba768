// Chebyshev semi-iterative acceleration of the V-FPI (002 §III-G, Alg. 3; Wang 2015):
//   x_{k+1} = ω_{k+1} (θ (x̄_{k+1} − x_k) + x_k − x_{k−1}) + x_{k−1},
// with x̄_{k+1} the plain V-FPI step, θ the under-relaxation, ω = 1 before the start index S,
// ω_S = 2 / (2 − ρ²) and ω_{k+1} = 4 / (4 − ρ² ω_k) after it. The spectral radius ρ is
// estimated as in 002:39 by the ratio of successive V-FPI residuals ‖x̄_{k+1} − x_k‖, capped by
// ρ_max since the accelerated residual need not decrease monotonically.
#pragma once

#include <algorithm>

namespace ncp::cond {

class Chebyshev {
 public:
  Chebyshev(int start, double rho_max) : start_(start), rho_max_(rho_max) {}

  // ω for the update after iteration k (0-based), given that iteration's V-FPI residual.
  double Next(int k, double residual) {
    if (previous_ > 0) rho_ = std::min(residual / previous_, rho_max_);
    previous_ = residual;
    if (k < start_)
      omega_ = 1.0;
    else if (k == start_)
      omega_ = 2.0 / (2.0 - rho_ * rho_);
    else
      omega_ = 4.0 / (4.0 - rho_ * rho_ * omega_);
    return omega_;
  }
  double rho() const { return rho_; }
  double omega() const { return omega_; }

 private:
  int start_;
  double rho_max_;
  double rho_ = 0.0, omega_ = 1.0, previous_ = -1.0;
};

}  // namespace ncp::cond
