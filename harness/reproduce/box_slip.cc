#include "harness/reproduce/box_slip.h"

#include <algorithm>
#include <cmath>

namespace ncp {

Eigen::Vector2d MdpStep(const Eigen::Vector2d& v, double mu_x, double mu_y, double g, double dt) {
  const Eigen::Vector2d mu2(mu_x * mu_x, mu_y * mu_y);
  const double gdt = g * dt;
  // Sticking: the impulse −v that stops the box lies in the ellipse.
  if (std::hypot(v.x() / mu_x, v.y() / mu_y) <= gdt) return Eigen::Vector2d::Zero();
  auto after = [&](double s) {
    return Eigen::Vector2d(v.x() / (1 + gdt * mu2.x() / s), v.y() / (1 + gdt * mu2.y() / s));
  };
  // f(s) = s − ‖M v_{k+1}(s)‖ is negative near 0 when sliding and positive at ‖M v‖.
  double lo = 0.0, hi = std::hypot(mu_x * v.x(), mu_y * v.y());
  for (int i = 0; i < 200 && hi - lo > 1e-17 * hi; ++i) {
    const double s = 0.5 * (lo + hi);
    const Eigen::Vector2d w = after(s);
    (s - std::hypot(mu_x * w.x(), mu_y * w.y()) < 0 ? lo : hi) = s;
  }
  return after(0.5 * (lo + hi));
}

std::vector<Eigen::Vector2d> MdpPath(const Eigen::Vector2d& v0, double mu_x, double mu_y, double g,
                                     double dt, int steps) {
  std::vector<Eigen::Vector2d> x = {Eigen::Vector2d::Zero()};
  Eigen::Vector2d v = v0;
  for (int k = 0; k < steps; ++k) {
    v = MdpStep(v, mu_x, mu_y, g, dt);
    x.push_back(x.back() + dt * v);
  }
  return x;
}

double HeadingTurn(const std::vector<Eigen::Vector2d>& path, double moving) {
  if (path.size() < 3) return 0.0;
  const Eigen::Vector2d first = path[1] - path[0];
  Eigen::Vector2d last = first;
  for (std::size_t k = 2; k < path.size(); ++k) {
    const Eigen::Vector2d d = path[k] - path[k - 1];
    if (d.norm() > moving * first.norm()) last = d;
  }
  const double c = first.dot(last) / std::max(first.norm() * last.norm(), 1e-300);
  return std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / M_PI;
}

}  // namespace ncp
