// The pouring scene (004 §VII-C): the analytic sphere–SDF contact against a brute-force
// distance to a dense sampling of the bottle's skeleton, contacts of the particles inside the
// bottle (normals into the bottle's interior), and the pour itself.
#include "problems/scenarios/rigid/pouring.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "harness/simulate.h"
#include "problems/physics/collision/collision_world.h"
#include "problems/physics/sdf/dish_sdf.h"
#include "tests/collision_support.h"
#include "tests/expect_error.h"

namespace ncp::physics {
namespace {

using testing::At;
using testing::Rot;

// Points of the bottle's skeleton (the segments O–A and A–B revolved about z) about `h` apart:
// the solid is every point within the thickness d of them.
std::vector<Vec3> Skeleton(const DishSdf& s, double h) {
  std::vector<Vec3> pts;
  auto revolve = [&](const Eigen::Vector2d& p0, const Eigen::Vector2d& p1) {
    const int n = static_cast<int>(std::ceil((p1 - p0).norm() / h));
    for (int i = 0; i <= n; ++i) {
      const Eigen::Vector2d q = p0 + (p1 - p0) * (double(i) / n);
      const int m = std::max(1, static_cast<int>(std::ceil(2 * M_PI * q.x() / h)));
      for (int j = 0; j < m; ++j) {
        const double a = 2 * M_PI * j / m;
        pts.emplace_back(q.x() * std::cos(a), q.x() * std::sin(a), q.y());
      }
    }
  };
  revolve(s.o(), s.a());
  revolve(s.a(), s.b());
  return pts;
}

// A sphere near a tilted bottle, the bottle as the first or the second geom: the contact's gap
// and normal match the distance to the sampled skeleton (minus the thickness) and the direction
// from the nearest sample; beyond the margin there is no contact.
TEST(Pouring, SphereSdfContactMatchesBruteForce) {
  const auto bottle = std::make_shared<DishSdf>(DishSdf::Bottle());
  const std::vector<Vec3> skeleton = Skeleton(*bottle, 4e-4);
  const Pose pose = At(Vec3(0.1, -0.05, 0.3), Rot(2.0, Vec3(1, 2, 0.5)));
  const double r = 0.005, margin = 0.01, d = bottle->thickness();
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> ur(-0.06, 0.06), uz(-0.02, 0.14);
  int checked = 0, empty = 0;
  double worst_gap = 0, worst_angle = 0;
  for (int k = 0; k < 400; ++k) {
    const Vec3 local(ur(rng), ur(rng), uz(rng));
    double brute = 1e300;
    Vec3 nearest;
    for (const Vec3& s : skeleton)
      if (const double dist = (local - s).norm(); dist < brute) brute = dist, nearest = s;
    if (brute < d + 1e-3) continue;  // inside or at the solid: the sampling says nothing there
    Geom sdf, sphere;
    sdf.shape.type = ShapeType::kSdf;
    sdf.shape.sdf = bottle;
    sphere.body = 0;
    sphere.shape.type = ShapeType::kSphere;
    sphere.shape.radius = r;
    const bool sdf_first = k % 2 == 0;
    const Vec3 center = pose * local;
    CollisionWorld world(sdf_first ? std::vector<Geom>{sdf, sphere}
                                   : std::vector<Geom>{sphere, sdf});
    std::vector<ContactPoint> out;
    world.Detect(
        sdf_first ? std::vector<Pose>{pose, At(center)} : std::vector<Pose>{At(center), pose},
        margin, out);
    const double gap = brute - d - r;
    if (gap > margin + 1e-4) {
      EXPECT_TRUE(out.empty()) << "gap " << gap;
      ++empty;
      continue;
    }
    if (gap > margin - 1e-4) continue;  // too close to the margin to call
    ASSERT_EQ(out.size(), 1u) << "gap " << gap;
    // Normal from geom a to geom b: from the bottle to the sphere when the bottle is first.
    const Vec3 n = sdf_first ? out[0].normal : Vec3(-out[0].normal);
    const Vec3 expect = pose.linear() * (local - nearest).normalized();
    worst_gap = std::max(worst_gap, std::abs(out[0].gap - gap));
    worst_angle = std::max(worst_angle, std::acos(std::clamp(n.dot(expect), -1.0, 1.0)));
    // The contact point lies halfway between the sphere's surface and the bottle's.
    EXPECT_NEAR((out[0].position - center).norm(), r + 0.5 * out[0].gap, 1e-12);
    ++checked;
  }
  std::printf(
      "sphere-SDF: %d contacts, worst |gap - brute force| = %.2e m, worst normal angle "
      "= %.3f rad; %d spheres beyond the margin without contact\n",
      checked, worst_gap, worst_angle, empty);
  EXPECT_GE(checked, 20);
  EXPECT_GE(empty, 20);
  EXPECT_LE(worst_gap, 2e-5);  // sampling 0.4 mm apart at ≥ 5 mm: chord error below 1e-5 m
  EXPECT_LE(worst_angle, 0.08);
}

TEST(Pouring, SdfGeomRejectsShapesOtherThanSpheres) {
  Geom sdf, box;
  sdf.shape.type = ShapeType::kSdf;
  sdf.shape.sdf = std::make_shared<DishSdf>(DishSdf::Bottle());
  box.body = 0;
  box.shape.type = ShapeType::kBox;
  box.shape.half_extents = Vec3::Constant(0.01);
  EXPECT_THROW(CollisionWorld({sdf, box}), std::invalid_argument);
  Geom on_body = sdf;
  on_body.body = 0;
  EXPECT_THROW(CollisionWorld({on_body}), std::invalid_argument);
}

TEST(Pouring, BadParametersNameTheFieldAndTheRule) {
  const SceneEntry& e = *FindScene("pouring");
  auto build = [&](const char* key, const char* value) {
    return [&e, key, value] { e.build(SceneParams(e, {{key, value}}), 1); };
  };
  ncp::testing::ExpectError(build("tilt_time", "0"), {"pouring.tilt_time = 0", "must be > 0"});
  ncp::testing::ExpectError(build("radius", "0"), {"pouring.radius = 0", "must be > 0"});
  ncp::testing::ExpectError(build("particles", "500"),
                            {"pouring.particles = 500", "fit in the bottle"});
  ncp::testing::ExpectError(build("particles", "2.5"), {"pouring.particles = 2.5", "whole number"});
}

// Classifies a bottle contact seen in the bottle's frame: +1 bottom (normal up the axis), +2
// wall (normal towards the axis), 0 anything else.
int InteriorSide(const Pose& bottle, const ContactPoint& c, bool bottle_first) {
  const Vec3 n = bottle.linear().transpose() * (bottle_first ? c.normal : Vec3(-c.normal));
  const Vec3 p = bottle.inverse() * c.position;
  const Vec3 radial = Vec3(p.x(), p.y(), 0).normalized();
  if (n.z() > 0.99) return 1;
  if (n.dot(radial) < -0.95) return 2;
  return 0;
}

TEST(Pouring, ParticlesInsideTheBottleTouchItFromTheInside) {
  const SceneEntry& entry = *FindScene("pouring");
  const auto params = SceneParams(entry, {{"particles", "45"}});
  Scene sc = entry.build(params, 1);
  const PouringLayout layout = PouringGeometry(params);
  std::vector<ContactPoint> contacts;
  sc.system->BuildProblem(&contacts);
  const auto& geoms = sc.system->geoms();
  const Pose bottle = layout.BottlePose(0.0);
  int bottom = 0, wall = 0;
  for (int b = 0; b < sc.system->num_bodies(); ++b)
    EXPECT_TRUE(layout.InBottle(bottle, sc.system->BodyPose(b).translation())) << "particle " << b;
  for (const ContactPoint& c : contacts) {
    // Only the bottle is near the particles at the start (the cup stands on the floor).
    const bool a_sdf = geoms[c.geom_a].shape.type == ShapeType::kSdf,
               b_sdf = geoms[c.geom_b].shape.type == ShapeType::kSdf;
    if (!a_sdf && !b_sdf) continue;
    const int side = InteriorSide(bottle, c, a_sdf);
    EXPECT_NE(side, 0) << "normal " << c.normal.transpose() << " at " << c.position.transpose();
    bottom += side == 1;
    wall += side == 2;
  }
  std::printf(
      "45 particles at rest in the bottle: %d bottom and %d wall contacts, all normals "
      "into the interior\n",
      bottom, wall);
  EXPECT_GE(bottom, 15);  // the whole first layer is 1 mm above the bottom
  EXPECT_GT(wall, 0);
}

// The whole task: tilted by the default trajectory, the bottle empties into the cup.
TEST(Pouring, TheBottleEmptiesIntoTheCup) {
  SimulateOptions o;
  o.solver = "subadmm";
  o.iters = 100;
  o.reference_solvers.clear();
  o.quiet = true;
  const SimulateResult r = Simulate(*FindScene("pouring"), {{"particles", "9"}}, 1, o);
  const PouringLayout layout = PouringGeometry(r.params);
  const Pose bottle = layout.BottlePose(r.params.at("tilt_deg") * M_PI / 180.0);
  int in_cup = 0, in_bottle = 0;
  for (const Pose& x : r.final_poses) {
    in_cup += layout.InCup(x.translation());
    in_bottle += layout.InBottle(bottle, x.translation());
  }
  double penetration = 0;
  for (const StepStats& s : r.steps) penetration = std::max(penetration, s.max_penetration);
  std::printf(
      "9 particles poured (subadmm, 100 iterations per step): %d in the cup, %d left in "
      "the bottle, max penetration %.2f mm\n",
      in_cup, in_bottle, 1e3 * penetration);
  EXPECT_EQ(in_bottle, 0);
  EXPECT_GE(in_cup, 8);
  EXPECT_LT(penetration, 0.004);  // below the 4 mm wall: nothing tunnels through
}

}  // namespace
}  // namespace ncp::physics
