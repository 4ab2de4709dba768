// Spatial algebra in [linear; angular] order with twists in the moving frame.
#pragma once

#include <Eigen/Geometry>
#include <cmath>

#include "problems/physics/dynamics/articulated_model.h"

namespace ncp::physics {

inline Mat3 Skew(const Vec3& p) {
  Mat3 s;
  s << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
  return s;
}

// Maps a twist expressed in frame A to the same motion expressed in frame B, where T_ab is the
// pose of B in A: [v_b; ω_b] = [Rᵀ, −Rᵀ[p]; 0, Rᵀ] [v_a; ω_a]. Its transpose maps forces back.
inline Mat6 TwistTransform(const Pose& T_ab) {
  const Mat3 Rt = T_ab.linear().transpose();
  Mat6 X;
  X << Rt, -Rt * Skew(T_ab.translation()), Mat3::Zero(), Rt;
  return X;
}

// Motion cross product V ×ₘ U for twists [v; ω].
inline Vec6 CrossMotion(const Vec6& V, const Vec6& U) {
  Vec6 r;
  r.head<3>() = V.tail<3>().cross(U.head<3>()) + V.head<3>().cross(U.tail<3>());
  r.tail<3>() = V.tail<3>().cross(U.tail<3>());
  return r;
}

// Force cross product V ×f F for a twist V = [v; ω] and a wrench F = [f; n].
inline Vec6 CrossForce(const Vec6& V, const Vec6& F) {
  Vec6 r;
  r.head<3>() = V.tail<3>().cross(F.head<3>());
  r.tail<3>() = V.tail<3>().cross(F.tail<3>()) + V.head<3>().cross(F.head<3>());
  return r;
}

// Rotation by angle |w| about w/|w| (Rodrigues), exact for small angles too.
inline Mat3 ExpSO3(const Vec3& w) {
  const double th = w.norm();
  if (th < 1e-12) return Mat3::Identity() + Skew(w);
  return Eigen::AngleAxisd(th, w / th).toRotationMatrix();
}

// The rotation vector of R (|θ| < π), ExpSO3's inverse; exact near the identity, where the
// angle–axis form loses its axis.
inline Vec3 LogSO3(const Mat3& R) {
  Eigen::Quaterniond q(R);
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  const double s = q.vec().norm();
  if (s < 1e-12) return 2.0 * q.vec() / q.w();
  return 2.0 * std::atan2(s, q.w()) / s * q.vec();
}

}  // namespace ncp::physics
