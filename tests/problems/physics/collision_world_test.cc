// CollisionWorld: conventions of the FCL pairs (normal from a to b, gap, position halfway),
// filtering (world, body, group), broad phase within the margin, deterministic order.
#include "problems/physics/collision/collision_world.h"

#include <gtest/gtest.h>

#include "tests/collision_support.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace ncp::physics {
namespace {

constexpr double kWorldTol = 1e-9;

using testing::At;
using testing::Detect;
using testing::kMargin;
using testing::Rot;

Geom MakeGeom(int body, ShapeType type, double radius, double half_length = 0.0,
              const Vec3& half = Vec3::Zero()) {
  Geom g;
  g.body = body;
  g.shape.type = type;
  g.shape.radius = radius;
  g.shape.half_length = half_length;
  g.shape.half_extents = half;
  return g;
}

Geom Sphere(int body, double r) { return MakeGeom(body, ShapeType::kSphere, r); }
Geom Box(int body, const Vec3& half) { return MakeGeom(body, ShapeType::kBox, 0.0, 0.0, half); }

void ExpectPoint(const ContactPoint& c, double gap, const Vec3& normal, const Vec3& position,
                 double tol = kWorldTol) {
  EXPECT_NEAR(c.gap, gap, tol);
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
  EXPECT_NEAR((c.normal - normal).norm(), 0.0, tol);
  EXPECT_NEAR((c.position - position).norm(), 0.0, tol);
}

TEST(CollisionWorld, SphereSphereMatchesTheAnalyticContact) {
  const Vec3 ca(0.1, -0.2, 0.3);
  const Vec3 dir = Vec3(1.0, 2.0, -0.5).normalized();
  for (const double gap : {-0.05, 0.004}) {
    const Vec3 cb = ca + (0.5 + 0.3 + gap) * dir;
    const auto out = Detect({Sphere(0, 0.5), Sphere(1, 0.3)}, {At(ca), At(cb)});
    ASSERT_EQ(out.size(), 1u) << "gap " << gap;
    EXPECT_EQ(out[0].geom_a, 0);
    EXPECT_EQ(out[0].geom_b, 1);
    ExpectPoint(out[0], gap, dir, ca + (0.5 + 0.5 * gap) * dir);
  }
  EXPECT_TRUE(Detect({Sphere(0, 0.5), Sphere(1, 0.3)}, {At(ca), At(ca + 0.82 * dir)}).empty());
}

TEST(CollisionWorld, SphereAboveBoxFacePointsFromBoxToSphere) {
  // Box a (half height 1), sphere b (radius 0.5) above its top face.
  for (const double gap : {-0.05, 0.004}) {
    const Vec3 c(0.2, 0.1, 1.0 + 0.5 + gap);
    const auto out =
        Detect({Box(0, Vec3(1.0, 1.0, 1.0)), Sphere(1, 0.5)}, {At(Vec3::Zero()), At(c)});
    ASSERT_EQ(out.size(), 1u) << "gap " << gap;
    ExpectPoint(out[0], gap, Vec3::UnitZ(), Vec3(0.2, 0.1, 1.0 + 0.5 * gap));
  }
}

TEST(CollisionWorld, SphereNearBoxEdgeGetsTheDiagonalNormal) {
  const Vec3 n = Vec3(1.0, 0.0, 1.0).normalized();
  const Vec3 edge(1.0, 0.3, 1.0);
  for (const double gap : {-0.02, 0.006}) {
    const auto out = Detect({Box(0, Vec3(1.0, 1.0, 1.0)), Sphere(1, 0.4)},
                            {At(Vec3::Zero()), At(edge + (0.4 + gap) * n)});
    ASSERT_EQ(out.size(), 1u) << "gap " << gap;
    ExpectPoint(out[0], gap, n, edge + 0.5 * gap * n, 1e-7);
  }
}

TEST(CollisionWorld, SwappingTheGeomsFlipsTheNormal) {
  const Pose box = At(Vec3(0.0, 0.0, 0.0), Rot(0.3, Vec3(1.0, 2.0, 3.0)));
  for (const double gap : {-0.05, 0.004}) {  // penetrating, then apart within the margin
    const Pose sphere = At(box * Vec3(0.1, 0.2, 0.6 + 0.5 + gap));
    const Geom g_box = Box(0, Vec3(1.0, 0.8, 0.6));
    const Geom g_sphere = Sphere(1, 0.5);
    const auto ab = Detect({g_box, g_sphere}, {box, sphere});
    const auto ba = Detect({g_sphere, g_box}, {sphere, box});
    ASSERT_EQ(ab.size(), 1u);
    ASSERT_EQ(ba.size(), 1u);
    EXPECT_NEAR((ab[0].normal + ba[0].normal).norm(), 0.0, 1e-7);
    EXPECT_NEAR(ab[0].gap, gap, 1e-9);
    EXPECT_NEAR(ba[0].gap, gap, 1e-9);
    EXPECT_NEAR((ab[0].normal - box.linear().col(2)).norm(), 0.0, 1e-9);
    EXPECT_NEAR((ab[0].position - ba[0].position).norm(), 0.0, 1e-7);
    EXPECT_GT(ab[0].normal.dot(sphere.translation() - box.translation()), 0.0);
  }
}

TEST(CollisionWorld, FclPairsPointFromAToBInBothOrders) {
  // Capsules, cylinders and boxes against each other along x: a at the origin, b at +x.
  const Geom capsule = MakeGeom(0, ShapeType::kCapsule, 0.3, 0.5);
  const Geom cylinder = MakeGeom(0, ShapeType::kCylinder, 0.3, 0.5);
  const Geom box = Box(0, Vec3(0.3, 0.3, 0.5));
  const Geom sphere = Sphere(0, 0.3);
  const std::vector<Geom> shapes = {capsule, cylinder, box, sphere};
  for (const Geom& a : shapes) {
    for (const Geom& b : shapes) {
      Geom gb = b;
      gb.body = 1;
      for (const double gap : {-0.01, 0.005}) {
        const auto out = Detect({a, gb}, {At(Vec3::Zero()), At(Vec3(0.6 + gap, 0.0, 0.0))});
        ASSERT_FALSE(out.empty()) << int(a.shape.type) << " " << int(b.shape.type) << " " << gap;
        for (const ContactPoint& c : out) {
          EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
          EXPECT_GT(c.normal.x(), 0.99) << int(a.shape.type) << " " << int(b.shape.type);
          EXPECT_NEAR(c.gap, gap, 1e-5) << int(a.shape.type) << " " << int(b.shape.type);
          EXPECT_NEAR(c.position.x(), 0.3 + 0.5 * gap, 1e-5)
              << int(a.shape.type) << " " << int(b.shape.type);
        }
      }
    }
  }
}

TEST(CollisionWorld, CrossedCapsulesMatchTheAnalyticDistance) {
  // Axes along x (a) and y (b), 0.5 apart in z; radii 0.2 and 0.25.
  const Mat3 along_x = Rot(std::numbers::pi / 2, Vec3::UnitY());
  const Mat3 along_y = Rot(std::numbers::pi / 2, Vec3::UnitX());
  const auto out = Detect(
      {MakeGeom(0, ShapeType::kCapsule, 0.2, 1.0), MakeGeom(1, ShapeType::kCapsule, 0.25, 1.0)},
      {At(Vec3(0.0, 0.0, 0.0), along_x), At(Vec3(0.0, 0.0, 0.5), along_y)}, 0.1);
  ASSERT_EQ(out.size(), 1u);
  ExpectPoint(out[0], 0.05, Vec3::UnitZ(), Vec3(0.0, 0.0, 0.225), 1e-6);
}

TEST(CollisionWorld, WorldGeomsNeverCollideWithEachOther) {
  Geom plane;
  plane.shape.type = ShapeType::kPlane;
  const auto out = Detect({plane, Box(-1, Vec3(1.0, 1.0, 1.0)), Sphere(-1, 0.5)},
                          {At(Vec3::Zero()), At(Vec3::Zero()), At(Vec3(0.5, 0.0, 0.0))});
  EXPECT_TRUE(out.empty());
}

TEST(CollisionWorld, GeomsOfOneBodyNeverCollide) {
  const auto out = Detect({Sphere(3, 0.5), Sphere(3, 0.5)}, {At(Vec3::Zero()), At(Vec3::Zero())});
  EXPECT_TRUE(out.empty());
}

TEST(CollisionWorld, SharedNonZeroGroupFiltersThePair) {
  const std::vector<Pose> poses = {At(Vec3::Zero()), At(Vec3(0.9, 0.0, 0.0))};
  for (const auto& [ga, gb, expected] : std::vector<std::tuple<int, int, bool>>{
           {0, 0, true}, {2, 2, false}, {1, 2, true}, {0, 2, true}}) {
    Geom a = Sphere(0, 0.5), b = Sphere(1, 0.5);
    a.group = ga;
    b.group = gb;
    EXPECT_EQ(!Detect({a, b}, poses).empty(), expected) << ga << " " << gb;
    EXPECT_EQ(CanCollide(a, b), expected);
  }
}

TEST(CollisionWorld, BroadPhaseFindsEveryPairWithinTheMargin) {
  // Random spheres compared with the all-pairs answer; the margin is large against the gaps so
  // that many pairs are near but apart, where the boxes without inflation would not overlap.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(0.0, 4.0), rad(0.05, 0.2);
  const int n = 400;
  const double margin = 0.1;
  std::vector<Geom> geoms;
  std::vector<Pose> poses;
  for (int k = 0; k < n; ++k) {
    geoms.push_back(Sphere(k, rad(rng)));
    poses.push_back(At(Vec3(pos(rng), pos(rng), pos(rng))));
  }
  std::set<std::pair<int, int>> expected;
  int apart = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double gap = (poses[j].translation() - poses[i].translation()).norm() -
                         geoms[i].shape.radius - geoms[j].shape.radius;
      if (gap < margin) expected.emplace(i, j);
      if (gap > 0.0 && gap < margin) ++apart;
    }
  }
  ASSERT_GT(apart, 10);
  const auto out = Detect(geoms, poses, margin);
  std::set<std::pair<int, int>> found;
  for (const ContactPoint& c : out) found.emplace(c.geom_a, c.geom_b);
  EXPECT_EQ(found, expected);
  EXPECT_EQ(out.size(), expected.size());
}

// A pile of mixed shapes on a plane, some of them touching.
void Pile(int n, std::vector<Geom>& geoms, std::vector<Pose>& poses, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> xy(-1.0, 1.0), z(0.0, 2.0), angle(-3.0, 3.0);
  Geom plane;
  plane.shape.type = ShapeType::kPlane;
  geoms = {plane};
  poses = {At(Vec3::Zero())};
  for (int k = 0; k < n; ++k) {
    switch (k % 4) {
      case 0:
        geoms.push_back(Sphere(k, 0.2));
        break;
      case 1:
        geoms.push_back(Box(k, Vec3(0.2, 0.15, 0.1)));
        break;
      case 2:
        geoms.push_back(MakeGeom(k, ShapeType::kCapsule, 0.1, 0.2));
        break;
      default:
        geoms.push_back(MakeGeom(k, ShapeType::kCylinder, 0.15, 0.1));
        break;
    }
    poses.push_back(
        At(Vec3(xy(rng), xy(rng), z(rng)), Rot(angle(rng), Vec3(xy(rng), xy(rng), 1.0))));
  }
}

bool SameContacts(const std::vector<ContactPoint>& a, const std::vector<ContactPoint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].geom_a != b[k].geom_a || a[k].geom_b != b[k].geom_b || a[k].gap != b[k].gap ||
        a[k].position != b[k].position || a[k].normal != b[k].normal) {
      return false;
    }
  }
  return true;
}

TEST(CollisionWorld, OutputIsSortedAndDeterministic) {
  std::vector<Geom> geoms;
  std::vector<Pose> poses;
  Pile(80, geoms, poses, 11);
  CollisionWorld world(geoms);
  std::vector<ContactPoint> first, second, fresh;
  world.Detect(poses, 0.02, first);
  world.Detect(poses, 0.02, second);
  CollisionWorld other(geoms);
  other.Detect(poses, 0.02, fresh);
  ASSERT_GT(first.size(), 20u);
  EXPECT_TRUE(SameContacts(first, second));
  EXPECT_TRUE(SameContacts(first, fresh));
  for (size_t k = 0; k < first.size(); ++k) {
    const ContactPoint& c = first[k];
    EXPECT_LT(c.geom_a, c.geom_b);
    EXPECT_LT(c.gap, 0.02);
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    if (k == 0) continue;
    const ContactPoint& p = first[k - 1];
    const auto key = [](const ContactPoint& x) {
      return std::make_tuple(x.geom_a, x.geom_b, x.position.x(), x.position.y(), x.position.z());
    };
    EXPECT_LE(key(p), key(c));
  }
}

TEST(CollisionWorld, MovedGeomsGiveTheSameAsAFreshWorld) {
  // The refitted tree must find what a tree built at the new poses finds.
  std::vector<Geom> geoms;
  std::vector<Pose> start, moved;
  Pile(60, geoms, start, 3);
  Pile(60, geoms, moved, 4);
  CollisionWorld world(geoms);
  std::vector<ContactPoint> before, after, fresh;
  world.Detect(start, 0.02, before);
  world.Detect(moved, 0.02, after);
  CollisionWorld(geoms).Detect(moved, 0.02, fresh);
  ASSERT_FALSE(after.empty());
  EXPECT_TRUE(SameContacts(after, fresh));
}

TEST(CollisionWorld, AppendsToTheOutput) {
  std::vector<ContactPoint> out(2);
  CollisionWorld world({Sphere(0, 0.5), Sphere(1, 0.5)});
  world.Detect({At(Vec3::Zero()), At(Vec3(0.9, 0.0, 0.0))}, kMargin, out);
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].geom_b, 1);
}

TEST(CollisionWorld, WrongNumberOfPosesThrows) {
  CollisionWorld world({Sphere(0, 0.5), Sphere(1, 0.5)});
  std::vector<ContactPoint> out;
  EXPECT_THROW(world.Detect({At(Vec3::Zero())}, kMargin, out), std::invalid_argument);
  EXPECT_EQ(world.geoms().size(), 2u);
}

}  // namespace
}  // namespace ncp::physics
