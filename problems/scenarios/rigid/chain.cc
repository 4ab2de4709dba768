// chain: a chain of revolute joints with joint friction after 003 §6 (Fig. 5a/5b), in maximal
// coordinates. Each link is a free box of length `link_length` along x (no geometry: nothing
// collides); joint 0 hinges link 0 to the world at the origin, joint k links k − 1 and k at their
// shared end. Every joint is a FrictionJoint (joint_contacts.h): a cylinder of radius `radius`
// and half-length `half_length` held by five implicit contacts, each a joint-friction constraint
// (n bilateral, |λ_t| ≤ μ |λ_n| around the axis). The chain starts horizontal along x, at rest;
// all axes are parallel, (0, sin tilt, cos tilt): `tilt` from gravity (−z), so the chain swings
// in a plane tilted 90° − tilt from the vertical under g sin(tilt).
// The joints nearer the root carry more weight, so their contact forces and friction are larger:
// with the defaults the root joint stops first (003 Fig. 5a; the others in no fixed order, see
// `reproduce 003-fig5`), and a larger radius brakes harder under the same μ (003 Fig. 5b).
//   DOF = 6 links; rows = 5 · 2 links (5 joint-friction constraints per joint); no contacts.
#include <cmath>
#include <memory>

#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

Scene MakeChain(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const int n = static_cast<int>(p.at("links"));
  const double L = p.at("link_length"), w = p.at("link_width");
  const double tilt = p.at("tilt") * M_PI / 180.0;
  StepOptions opt;
  opt.dt = p.at("dt");
  Scene sc = NewScene(p, opt);
  MultibodySystem& s = *sc.system;

  const Vec3 half(0.5 * L, 0.5 * w, 0.5 * w);
  const double mass = p.at("density") * L * w * w;
  // Joint frames: z along the axis (0, sin tilt, cos tilt), a rotation about x.
  const Eigen::AngleAxisd R(-tilt, Vec3::UnitX());
  std::vector<int> body(n);
  for (int k = 0; k < n; ++k) {
    // No geoms: the links never collide (with each other or anything).
    auto m =
        std::make_shared<ArticulatedModel>(MakeFreeBody("link", mass, BoxInertia(mass, half), {}));
    Pose pose = Pose::Identity();
    pose.translation() = Vec3((k + 0.5) * L, 0, 0);
    const int id = s.AddInstance(m, PoseToQ(pose), Eigen::VectorXd::Zero(6));
    body[k] = s.instances()[id].first_body;
  }
  s.Finalize();
  for (int k = 0; k < n; ++k) {
    FrictionJoint j;
    j.body_a = k == 0 ? -1 : body[k - 1];
    j.body_b = body[k];
    j.frame_a = Pose(R);  // the world frame at the origin, or the parent's far end
    j.frame_a.translation() = k == 0 ? Vec3::Zero() : Vec3(0.5 * L, 0, 0);
    j.frame_b = Pose(R);
    j.frame_b.translation() = Vec3(-0.5 * L, 0, 0);
    j.radius = p.at("radius");
    j.half_length = p.at("half_length");
    j.mu = p.at("mu");
    s.AddFrictionJoint(j);
  }
  return sc;
}

}  // namespace ncp
