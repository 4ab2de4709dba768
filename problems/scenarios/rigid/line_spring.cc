#include "problems/scenarios/rigid/line_spring.h"

#include <fmt/format.h>

#include "common/error.h"

namespace ncp {

using namespace physics;

int AddLineSpring(MultibodySystem& s, int body_a, const Vec3& at_a, int body_b, const Vec3& at_b,
                  double k, double tau) {
  const double length = (at_b - at_a).norm();
  if (!(length > 1e-12))
    throw Error(
        fmt::format("line spring between bodies {} and {}: length = {}: the points must "
                    "differ",
                    body_a, body_b, length));
  Pose world_frame(Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), (at_b - at_a) / length));
  world_frame.translation() = at_a;
  Coupling c;
  c.body_a = body_a;
  c.frame_a = body_a >= 0 ? Pose(s.BodyPose(body_a).inverse() * world_frame) : world_frame;
  c.body_b = body_b;
  c.frame_b = Pose(Eigen::Translation3d(s.BodyPose(body_b).inverse() * at_b));
  c.rows = 1u << 2;
  c.stiffness[2] = k;
  c.damping[2] = tau * k;
  c.rest[2] = length;
  return s.AddCoupling(c);
}

}  // namespace ncp
