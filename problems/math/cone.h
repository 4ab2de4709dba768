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

// Squared natural-map error of one contact, ‖r − Π_K(r − û)‖² with û = u + μ‖u_t‖ e_n (Siconos'
// fc3d_unitary_compute_and_add_error): the evaluator's natmap metrics and solvers that test
// progress on them share it.
NCP_HD double NatmapContactSquared(double mu, const double* r, const double* u) {
  const double x[3] = {r[0] - u[0] - mu * hypot(u[1], u[2]), r[1] - u[1], r[2] - u[2]};
  double y[3];
  ProjectProximal(mu, x, y);
  const double d0 = r[0] - y[0], d1 = r[1] - y[1], d2 = r[2] - y[2];
  return d0 * d0 + d1 * d1 + d2 * d2;
}

}  // namespace ncp
