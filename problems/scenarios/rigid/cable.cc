// cable: a Cosserat cable wound around a fixed vertical cylinder by a gripper (002 §V-C5).
// The cable lies on the floor along a tangent of the cylinder; its first end is held by
// bilateral rows to a world frame that circles the cylinder on a rising helix and turns with it
// (the prescribed gripper), so the cable is dragged around the post and wraps onto it. Contacts:
// link–floor and link–cylinder (capsules; no link–link contacts).
// variant = 2: 002 §V-C5, 320 links, one link per subsystem.
// variant = 0: 000 §IV-A2, 640 links, 4 links per subsystem (cable 1.2 m, ⌀ 8 mm, E = 0.1 MPa,
// ν = 0.49); the two mobile manipulators of 000 are replaced by the same single gripper.
// links and bodies_per_subsystem override the variant's counts (0: the variant's).
#include <cmath>
#include <fmt/format.h>

#include "common/error.h"
#include "problems/scenarios/rigid/rod.h"

namespace ncp {

using namespace physics;

namespace {

// A whole-number parameter (the spec bounds it to [0, 1e5]) where 0 means the variant's value.
int CountOrDefault(const std::map<std::string, double>& p, const char* key, int fallback, int min) {
  const double v = p.at(key);
  if (v == 0) return fallback;
  if (v < min)
    throw Error(
        fmt::format("cable.{} = {:g}: must be 0 (the variant's) or a whole number in "
                    "[{}, 1e5]",
                    key, v, min));
  return static_cast<int>(v);
}

}  // namespace

Scene MakeCable(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const double variant = p.at("variant");
  if (variant != 0 && variant != 2)
    throw Error(
        fmt::format("cable.variant = {:g}: must be 2 (002 §V-C5) or 0 (000 §IV-A2)", variant));
  const bool v000 = variant == 0;
  RodSpec spec;
  spec.links = CountOrDefault(p, "links", v000 ? 640 : 320, 2);
  const int per_subsystem = CountOrDefault(p, "bodies_per_subsystem", v000 ? 4 : 1, 1);
  spec.length = p.at("length");
  spec.radius = p.at("radius");
  spec.density = p.at("density");
  spec.young = p.at("young");
  spec.poisson = p.at("poisson");
  spec.damping = p.at("damping");
  spec.mu = p.at("mu");
  spec.nodal_contacts = p.at("nodal_contacts") != 0;

  StepOptions opt;
  opt.dt = p.at("dt");  // 000 §IV: 10 ms for every example
  Scene sc = NewScene(p, opt);
  MultibodySystem& s = *sc.system;
  AddFloor(s, spec.mu);
  const double Rc = p.at("cylinder_radius"), hc = p.at("cylinder_height");
  Geom post;
  post.shape.type = ShapeType::kCylinder;
  post.shape.radius = Rc;
  post.shape.half_length = 0.5 * hc;
  post.mu = spec.mu;
  post.local = Pose(Eigen::Translation3d(0, 0, 0.5 * hc));
  s.AddWorldGeom(post);

  // The cable on the floor along the tangent x = Rg of the post (1 mm clear of it), from y = 0
  // towards −y: the rod axis (link z) is −y.
  const double r = spec.radius, Rg = Rc + r + 0.001, z0 = r + 1e-4;
  Pose start(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()));
  start.translation() = Vec3(Rg, 0, z0);
  const Rod rod = AddRod(s, spec, start);
  if (per_subsystem > 1) s.GroupSubsystems(rod.first_instance, rod.links, per_subsystem, "cable");
  const int grip = AddRodEndCoupling(s, rod, 0, p.at("hard_grip") != 0);

  // The gripper circles the post counter-clockwise (towards +y first, pulling the cable along
  // its axis) at `turns_per_s`, rising by `pitch` per turn.
  const double w = 2 * M_PI * p.at("turns_per_s"), rise = p.at("pitch") * p.at("turns_per_s");
  auto place = [=](MultibodySystem& sys) {
    const double t = sys.time(), phi = w * t;
    const Eigen::AngleAxisd turn(phi, Vec3::UnitZ());
    Pose T(turn * start.linear());
    T.translation() = turn * Vec3(Rg, 0, 0) + Vec3(0, 0, z0 + rise * t);
    const Vec3 linear = w * Vec3::UnitZ().cross(T.translation()) + Vec3(0, 0, rise);
    sys.SetCouplingFrame(grip, T, linear, w * Vec3::UnitZ());
  };
  s.Finalize();
  place(s);
  sc.before_step = place;
  return sc;
}

}  // namespace ncp
