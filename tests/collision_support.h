// Pose helpers shared by the collision tests.
#pragma once

#include <Eigen/Geometry>

#include "problems/physics/geometry.h"

namespace ncp::physics::testing {

inline Pose At(const Vec3& p, const Mat3& r = Mat3::Identity()) {
  Pose pose = Pose::Identity();
  pose.linear() = r;
  pose.translation() = p;
  return pose;
}

inline Mat3 Rot(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

}  // namespace ncp::physics::testing
