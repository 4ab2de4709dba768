#include "problems/physics/sdf/frank_wolfe.h"

#include <cmath>

namespace ncp::physics {

SdfTriangleContact FrankWolfeTriangle(const Sdf& sdf, const Eigen::Vector3d& v0,
                                      const Eigen::Vector3d& v1, const Eigen::Vector3d& v2,
                                      const FrankWolfeOptions& opt) {
  const Eigen::Vector3d verts[3] = {v0, v1, v2};
  // Barycentric weights of the iterate: the away steps of Lacoste-Julien & Jaggi need them, and
  // they turn the O(1/k) zig-zag of plain Frank–Wolfe near an edge into linear convergence.
  double w[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  Eigen::Vector3d x = (v0 + v1 + v2) / 3.0, g;
  double fx = sdf.Eval(x, &g);
  for (int i = 0; i < 3; ++i) {  // a linear field's answer is a vertex: start there if better
    Eigen::Vector3d gv;
    const double fv = sdf.Eval(verts[i], &gv);
    if (fv < fx) {
      x = verts[i], fx = fv, g = gv;
      w[0] = w[1] = w[2] = 0.0, w[i] = 1.0;
    }
  }
  SdfTriangleContact c;
  int k = 0;
  for (; k < opt.max_iterations; ++k) {
    int s_best = 0, a_best = -1;
    for (int i = 0; i < 3; ++i) {
      if (g.dot(verts[i]) < g.dot(verts[s_best])) s_best = i;
      if (w[i] > 0 && (a_best < 0 || g.dot(verts[i]) > g.dot(verts[a_best]))) a_best = i;
    }
    const Eigen::Vector3d d_fw = verts[s_best] - x, d_away = x - verts[a_best];
    const double gap_fw = -g.dot(d_fw), gap_away = -g.dot(d_away);
    if (gap_fw <= opt.gap_tol) break;  // the Frank–Wolfe gap bounds f(x) − min f (convex f)
    const bool away = gap_away > gap_fw && w[a_best] < 1.0;
    const Eigen::Vector3d d = away ? d_away : d_fw;
    const double gmax = away ? w[a_best] / (1.0 - w[a_best]) : 1.0;
    // Exact line search on [0, γ_max] by golden section.
    const double r = 0.5 * (std::sqrt(5.0) - 1.0);
    double lo = 0.0, hi = gmax;
    double a = hi - r * (hi - lo), b = lo + r * (hi - lo);
    double fa = sdf.Eval(x + a * d, nullptr), fb = sdf.Eval(x + b * d, nullptr);
    for (int s = 0; s < opt.line_search_steps; ++s) {
      if (fa <= fb) {
        hi = b, b = a, fb = fa, a = hi - r * (hi - lo), fa = sdf.Eval(x + a * d, nullptr);
      } else {
        lo = a, a = b, fa = fb, b = lo + r * (hi - lo), fb = sdf.Eval(x + b * d, nullptr);
      }
    }
    // The end points too: the optimum of a step is often a vertex or an edge (γ = γ_max).
    double gamma = 0.5 * (lo + hi), fbest = sdf.Eval(x + gamma * d, nullptr);
    if (const double fe = sdf.Eval(x + gmax * d, nullptr); fe <= fbest) gamma = gmax, fbest = fe;
    if (!(fbest < fx)) break;  // no further decrease at this resolution
    if (away) {
      for (double& wi : w) wi *= 1.0 + gamma;
      w[a_best] -= gamma;
      if (gamma == gmax) w[a_best] = 0.0;  // the away vertex drops out
    } else {
      for (double& wi : w) wi *= 1.0 - gamma;
      w[s_best] += gamma;
    }
    x = w[0] * verts[0] + w[1] * verts[1] + w[2] * verts[2];
    fx = sdf.Eval(x, &g);
  }
  c.point = x;
  c.distance = fx;
  c.normal = g;
  c.iterations = k;
  return c;
}

}  // namespace ncp::physics
