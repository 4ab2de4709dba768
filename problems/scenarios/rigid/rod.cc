#include "problems/scenarios/rigid/rod.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"

namespace ncp {

using namespace physics;

Rod AddRod(MultibodySystem& s, const RodSpec& spec, const Pose& start) {
  if (spec.links < 1) throw Error(fmt::format("rod links = {}: must be >= 1", spec.links));
  if (!(spec.length > 0) || !(spec.density > 0) || !(spec.damping >= 0))
    throw Error(fmt::format("rod length = {}, density = {}, damping = {}: must be > 0, > 0, >= 0",
                            spec.length, spec.density, spec.damping));
  Rod rod;
  rod.links = spec.links;
  rod.link_length = spec.length / spec.links;
  rod.stiffness = CosseratStiffness(spec.young, spec.poisson, spec.radius, rod.link_length);
  rod.damping = spec.damping * rod.stiffness;
  const double l = rod.link_length, r = spec.radius;
  const double mass = spec.density * M_PI * r * r * l;
  const double across = mass * (3 * r * r + l * l) / 12;  // solid cylinder about a diameter
  Geom capsule;
  capsule.shape.type = ShapeType::kCapsule;
  capsule.shape.radius = r;
  capsule.shape.half_length = 0.5 * l;
  capsule.mu = spec.mu;
  capsule.group = spec.group;
  capsule.contact_at_origin = spec.nodal_contacts;
  auto model = std::make_shared<ArticulatedModel>(MakeFreeBody(
      "rod_link", mass, Vec3(across, across, 0.5 * mass * r * r).asDiagonal(), {capsule}));
  for (int i = 0; i < spec.links; ++i) {
    Pose pose = start;
    pose.translation() = start * Vec3(0, 0, (i + 0.5) * l);
    // Self-collision on keeps the capsule's rod group instead of a per-instance one.
    const int id = s.AddInstance(model, PoseToQ(pose), Eigen::VectorXd::Zero(6), {}, true);
    if (i == 0) rod.first_instance = id, rod.first_body = s.instances()[id].first_body;
  }
  Coupling c;
  c.frame_a = Pose(Eigen::Translation3d(0, 0, 0.5 * l));
  c.frame_b = Pose(Eigen::Translation3d(0, 0, -0.5 * l));
  c.stiffness = rod.stiffness;
  c.damping = rod.damping;
  for (int i = 0; i + 1 < spec.links; ++i) {
    c.body_a = rod.first_body + i;
    c.body_b = rod.first_body + i + 1;
    s.AddCoupling(c);
  }
  return rod;
}

int AddRodEndCoupling(MultibodySystem& s, const Rod& rod, int end, bool hard) {
  if (end != 0 && end != 1) throw Error(fmt::format("rod end = {}: must be 0 or 1", end));
  const int link = end == 0 ? 0 : rod.links - 1;
  const Eigen::VectorXd& q = s.instances()[rod.first_instance + link].q;  // before Finalize too
  Pose T = Pose::Identity();
  T.translation() = q.head<3>();
  T.linear() = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).toRotationMatrix();
  Coupling c;
  c.body_b = rod.first_body + link;
  c.frame_b = Pose(Eigen::Translation3d(0, 0, (end == 0 ? -0.5 : 0.5) * rod.link_length));
  c.frame_a = T * c.frame_b;
  c.stiffness = rod.stiffness;
  c.damping = rod.damping;
  c.hard = hard;
  return s.AddCoupling(c);
}

}  // namespace ncp
