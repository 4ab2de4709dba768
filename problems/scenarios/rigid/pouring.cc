// pouring (004 §VII-C, Fig. 10–11): spheres (r = 5 mm, 10 g/cm³) in a bottle built from the
// dish SDF module of 004 App. B, tilted by a prescribed gripper trajectory so that they pour
// into a cup standing on the floor. The paper's 28-DOF dual-arm robot that holds the bottle is
// replaced by its trajectory: the bottle is a kinematic geom whose velocity enters the contact
// rows through e, so the system is the particles alone (6 DOF each). Bottle and cup are SDF geoms:
// their contacts with the particles are analytic (gap = φ(center) − r, normal = ∇φ).
// The particles' rotational inertia is inertia_scale (default 100) × that of a solid sphere:
// the dynamics integrate the body-frame Coriolis term ω × m v explicitly, which amplifies the
// linear velocity of a body spinning at ω by √(1 + (ω dt)²) per step, and 5 mm spheres rolling
// on the moving bottle (ω dt ≈ 0.5) blew up in free fall. With the larger inertia they slide
// rather than roll and their spin stays small.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "common/error.h"
#include "problems/physics/sdf/dish_sdf.h"
#include "problems/scenarios/rigid/pouring.h"

namespace ncp {

using namespace physics;

PouringLayout PouringGeometry(const std::map<std::string, double>& p) {
  PouringLayout l;
  l.bottle = std::make_shared<DishSdf>(DishSdf::Bottle());
  l.cup = std::make_shared<DishSdf>(DishSdf::Pot(0.07, 0.06, 0.004));
  l.cup_pose = Pose(Eigen::Translation3d(p.at("cup_offset"), 0, 0));
  return l;
}

Pose PouringLayout::BottlePose(double tilt) const {
  // The mouth stays at `pivot` while the bottle turns about the world y axis (mouth towards +x).
  const double h = bottle->b().y();
  return Pose(Eigen::Translation3d(pivot) * Eigen::AngleAxisd(tilt, Vec3::UnitY()) *
              Eigen::Translation3d(0, 0, -h));
}

bool PouringLayout::InBottle(const Pose& bottle_pose, const Vec3& x) const {
  const Vec3 q = bottle_pose.inverse() * x;
  const double h = bottle->b().y();
  if (q.z() < 0 || q.z() > h) return false;
  // The wall's skeleton runs linearly from A (r_A, 0) to B (r_B, h).
  const double wall = bottle->a().x() + (bottle->b().x() - bottle->a().x()) * q.z() / h;
  return std::hypot(q.x(), q.y()) < wall;
}

bool PouringLayout::InCup(const Vec3& x) const {
  const Vec3 q = cup_pose.inverse() * x;
  return q.z() > 0 && q.z() < cup->b().y() && std::hypot(q.x(), q.y()) < cup->a().x();
}

Scene MakePouring(const std::map<std::string, double>& p, std::uint64_t seed) {
  StepOptions so;
  // Particles fall up to 2 m/s onto the cup (8 mm per step): a margin above that keeps a
  // speculative contact ahead of every impact on the 4 mm walls.
  so.margin = 0.01;
  Scene sc = NewScene(p, so);
  MultibodySystem& s = *sc.system;
  const double mu = p.at("mu"), r = p.at("radius");
  const int n = static_cast<int>(p.at("particles"));
  const double mass = p.at("density") * 4.0 / 3.0 * M_PI * r * r * r;
  const PouringLayout layout = PouringGeometry(p);
  AddFloor(s, mu);
  Geom cup;
  cup.shape.type = ShapeType::kSdf;
  cup.shape.sdf = layout.cup;
  cup.mu = mu;
  cup.local = layout.cup_pose;
  s.AddWorldGeom(cup);
  Geom bottle = cup;
  bottle.shape.sdf = layout.bottle;
  const int geom = s.AddKinematicGeom(bottle);

  // Particles on a square grid of pitch 2.2 r in layers from the bottom up, each at least 1 mm
  // clear of the wall, with a small random offset.
  const Pose start = layout.BottlePose(0.0);
  const double d = layout.bottle->thickness();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const double pitch = 2.2 * r, reach = layout.bottle->a().x();
  const int side = static_cast<int>(reach / pitch);
  int placed = 0;
  for (int layer = 0; placed < n; ++layer) {
    const double z = d + r + 1e-3 + layer * 2.05 * r;
    if (z + r > layout.bottle->b().y()) break;
    for (int ix = -side; ix <= side && placed < n; ++ix)
      for (int iy = -side; iy <= side && placed < n; ++iy) {
        const Vec3 c(ix * pitch + 0.05 * r * u(rng), iy * pitch + 0.05 * r * u(rng), z);
        if (!layout.InBottle(Pose::Identity(), c) || layout.bottle->Eval(c, nullptr) < r + 1e-3)
          continue;
        AddSphere(s, mass, r, mu, Pose(Eigen::Translation3d(start * c)), p.at("inertia_scale"));
        ++placed;
      }
  }
  if (placed < n)
    throw Error(fmt::format("pouring.particles = {}: at most {} fit in the bottle", n, placed));

  // Gripper trajectory: hold still while the particles settle, then tilt by tilt_deg with a
  // cosine velocity profile over tilt_time, then hold.
  const double settle = p.at("settle"), T = p.at("tilt_time");
  const double tilt = p.at("tilt_deg") * M_PI / 180.0;
  const Vec3 pivot = layout.pivot;
  auto place = [=](MultibodySystem& sys) {
    const double tau = std::clamp((sys.time() - settle) / T, 0.0, 1.0);
    const double angle = 0.5 * tilt * (1.0 - std::cos(M_PI * tau));
    const double rate = tau > 0 && tau < 1 ? 0.5 * tilt * M_PI / T * std::sin(M_PI * tau) : 0.0;
    const Vec3 w(0, rate, 0);
    // Points move with linear + w × x; the pivot is fixed, so linear = −w × pivot.
    sys.SetKinematicPose(geom, layout.BottlePose(angle), -w.cross(pivot), w);
  };
  s.Finalize();
  place(s);
  sc.before_step = place;
  return sc;
}

}  // namespace ncp
