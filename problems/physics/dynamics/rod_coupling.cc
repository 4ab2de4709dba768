#include "problems/physics/dynamics/rod_coupling.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {

Vec6 CosseratStiffness(double young, double poisson, double radius, double link_length) {
  if (!(young > 0) || !std::isfinite(young))
    throw Error(fmt::format("young = {}: must be finite and > 0", young));
  if (!(poisson > -1 && poisson < 0.5))
    throw Error(fmt::format("poisson = {}: must be in (-1, 0.5)", poisson));
  if (!(radius > 0) || !std::isfinite(radius))
    throw Error(fmt::format("radius = {}: must be finite and > 0", radius));
  if (!(link_length > 0) || !std::isfinite(link_length))
    throw Error(fmt::format("link_length = {}: must be finite and > 0", link_length));
  const double G = young / (2.0 * (1.0 + poisson));
  const double A = M_PI * radius * radius, I = 0.25 * M_PI * std::pow(radius, 4), J = 2.0 * I;
  const double kappa = 6.0 * (1.0 + poisson) / (7.0 + 6.0 * poisson);
  Vec6 k;
  k << kappa * G * A, kappa * G * A, young * A, young * I, young * I, G * J;
  return k / link_length;
}

CouplingRows EvaluateCoupling(const Coupling& c, const Pose& pose_a, const Pose& pose_b) {
  const Pose Fa = c.body_a < 0 ? c.frame_a : pose_a * c.frame_a;
  const Pose Fb = pose_b * c.frame_b;
  const Mat3 D = Fa.linear();  // row directions: frame a's axes in the world
  CouplingRows out;
  out.error.head<3>() = D.transpose() * (Fb.translation() - Fa.translation());
  const Eigen::AngleAxisd rel(D.transpose() * Fb.linear());
  out.error.tail<3>() = rel.angle() * rel.axis();
  out.error -= c.rest;
  // A body's side: point velocity R (v + ω × p) and angular velocity R ω, with p the joint
  // point in the body frame (004 App. A).
  auto side = [&](const Pose& T, const Pose& frame, double sign, Mat6& blk) {
    const Mat3 DR = sign * D.transpose() * T.linear();
    blk.topLeftCorner<3, 3>() = DR;
    blk.topRightCorner<3, 3>() = -DR * Skew(frame.translation());
    blk.bottomLeftCorner<3, 3>().setZero();
    blk.bottomRightCorner<3, 3>() = DR;
  };
  side(pose_b, c.frame_b, 1.0, out.block_b);
  out.anchor.setZero();
  if (c.body_a >= 0) {
    side(pose_a, c.frame_a, -1.0, out.block_a);
  } else {
    out.block_a.setZero();
    out.anchor.head<3>() = D.transpose() * c.anchor_linear;
    out.anchor.tail<3>() = D.transpose() * c.anchor_angular;
  }
  return out;
}

}  // namespace ncp::physics
