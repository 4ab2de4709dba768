// Poses, the contact margin and one-shot detection shared by the collision tests.
#pragma once

#include <Eigen/Geometry>

#include <vector>

#include "problems/physics/collision/collision_world.h"
#include "problems/physics/geometry.h"

namespace ncp::physics::testing {

constexpr double kMargin = 0.01;

inline Pose At(const Vec3& p, const Mat3& r = Mat3::Identity()) {
  Pose pose = Pose::Identity();
  pose.linear() = r;
  pose.translation() = p;
  return pose;
}

inline Mat3 Rot(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// The contacts a fresh world finds among `geoms` at `poses`.
inline std::vector<ContactPoint> Detect(const std::vector<Geom>& geoms,
                                        const std::vector<Pose>& poses, double margin = kMargin) {
  CollisionWorld world(geoms);
  std::vector<ContactPoint> out;
  world.Detect(poses, margin, out);
  return out;
}

}  // namespace ncp::physics::testing
