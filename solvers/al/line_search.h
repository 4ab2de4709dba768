// Exact line search of 004:26 on a strictly convex 1-D function by rtsafe (Numerical Recipes):
// Newton–Raphson on the derivative, safeguarded by bisection on a bracket.
#pragma once

#include <algorithm>
#include <cmath>

namespace ncp {

struct LineSearchResult {
  double alpha = 0.0;
  int evaluations = 0;
  bool converged = false;
};

// Minimizes f on α > 0 given df(α, f', f''), with f'(0) < 0. The bracket [0, b] is grown from
// `alpha0` by doubling until f'(b) ≥ 0. Stops when |f'(α)| ≤ tol·|f'(0)| or the bracket is
// below 1e-15 relative. A template, so the callback costs no allocation.
template <class DF>
LineSearchResult Rtsafe(DF&& df, double alpha0, double tol = 1e-12, int max_evaluations = 100) {
  LineSearchResult res;
  double g0, h0;
  df(0.0, g0, h0);
  ++res.evaluations;
  if (!(g0 < 0.0)) return res;  // not a descent direction: stay
  double lo = 0.0, hi = alpha0, g, h;
  df(hi, g, h);
  ++res.evaluations;
  while (g < 0.0 && res.evaluations < max_evaluations) {  // grow the bracket
    lo = hi;
    hi *= 2.0;
    df(hi, g, h);
    ++res.evaluations;
  }
  if (g < 0.0) {
    res.alpha = hi;
    return res;
  }
  double x = 0.5 * (lo + hi), dx_old = hi - lo, dx = dx_old;
  df(x, g, h);
  ++res.evaluations;
  const double target = tol * std::abs(g0);
  while (res.evaluations < max_evaluations) {
    if (std::abs(g) <= target) {
      res.converged = true;
      break;
    }
    if (g < 0)
      lo = x;
    else
      hi = x;
    // Newton if it stays inside the bracket and shrinks fast enough, else bisection.
    const double xn = h > 0 ? x - g / h : lo - 1.0;
    const bool newton_ok = (xn - lo) * (xn - hi) < 0 && std::abs(2.0 * g) <= std::abs(dx_old * h);
    dx_old = dx;
    if (newton_ok) {
      dx = x - xn;
      x = xn;
    } else {
      dx = 0.5 * (hi - lo);
      x = lo + dx;
    }
    if (hi - lo <= 1e-15 * std::max(1.0, std::abs(x))) {
      res.converged = true;
      break;
    }
    df(x, g, h);
    ++res.evaluations;
  }
  res.alpha = x;
  return res;
}

}  // namespace ncp
