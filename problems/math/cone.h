// Friction-cone projections on one contact, order [n, t1, t2], cone K_μ = {‖t‖ ≤ μ n}.
// Inline: they sit in every solver's innermost loop. Plain arrays and math.h only, so that the
// CUDA kernels call these same functions.
#pragma once

#include <math.h>

#include "problems/math/host_device.h"

namespace ncp {

// Strict operator of 004:14–16 (Prop. 2): normal clamped at zero, then the tangential part
// clamped to the disk of radius μ λ_n. Not a Euclidean projection onto K_μ.
NCP_HD void ProjectStrict(double mu, const double* x, double* y) {
  const double n = x[0] > 0.0 ? x[0] : 0.0;
  const double t1 = x[1], t2 = x[2];
  const double tn = sqrt(t1 * t1 + t2 * t2);
  const double r = mu * n;
  const double s = tn > r ? (tn > 0.0 ? r / tn : 0.0) : 1.0;
  y[0] = n;
  y[1] = s * t1;
  y[2] = s * t2;
}

// Euclidean projection onto K_μ (the proximal operator of its indicator).
NCP_HD void ProjectProximal(double mu, const double* x, double* y) {
  const double n = x[0], t1 = x[1], t2 = x[2];
  const double tn = sqrt(t1 * t1 + t2 * t2);
  // The polar cone first: with μ = 0 and t = 0 the cone test below would also accept n < 0.
  if (mu * tn <= -n) {  // inside the polar cone
    y[0] = y[1] = y[2] = 0.0;
    return;
  }
  if (tn <= mu * n) {  // inside the cone
    y[0] = n, y[1] = t1, y[2] = t2;
    return;
  }
  const double pn = (mu * tn + n) / (mu * mu + 1.0);
  const double s = mu * pn / tn;
  y[0] = pn;
  y[1] = s * t1;
  y[2] = s * t2;
}

}  // namespace ncp
