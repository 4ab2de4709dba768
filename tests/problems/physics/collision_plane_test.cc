// Plane manifolds: boxes, spheres, capsules and cylinders resting on or hovering over a plane.
#include <gtest/gtest.h>

#include "tests/collision_support.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "problems/physics/collision/collision_world.h"

namespace ncp::physics {
namespace {

constexpr double kPlaneTol = 1e-12;

using testing::At;
using testing::kMargin;
using testing::Rot;

Geom WorldPlane() {
  Geom g;
  g.shape.type = ShapeType::kPlane;
  return g;
}

Geom OnBody(int body, Shape shape) {
  Geom g;
  g.body = body;
  g.shape = shape;
  return g;
}

Shape Box(const Vec3& half) {
  Shape s;
  s.type = ShapeType::kBox;
  s.half_extents = half;
  return s;
}

Shape Round(ShapeType type, double radius, double half_length = 0.0) {
  Shape s;
  s.type = type;
  s.radius = radius;
  s.half_length = half_length;
  return s;
}

// Contacts of geom 1 at `pose` against a world plane (geom 0) through the origin, normal +z.
std::vector<ContactPoint> OnPlane(const Shape& shape, const Pose& pose, double margin = kMargin) {
  CollisionWorld world({WorldPlane(), OnBody(0, shape)});
  std::vector<ContactPoint> out;
  world.Detect({Pose::Identity(), pose}, margin, out);
  return out;
}

void ExpectPlaneContacts(const std::vector<ContactPoint>& out, double gap, const Vec3& normal) {
  for (const ContactPoint& c : out) {
    EXPECT_EQ(c.geom_a, 0);
    EXPECT_EQ(c.geom_b, 1);
    EXPECT_NEAR(c.gap, gap, kPlaneTol);
    EXPECT_NEAR((c.normal - normal).norm(), 0.0, kPlaneTol);
    EXPECT_NEAR(c.normal.norm(), 1.0, kPlaneTol);
  }
}

TEST(CollisionPlane, BoxRestingFlatGivesFourCorners) {
  const Vec3 half(0.5, 0.3, 0.2);
  const auto out = OnPlane(Box(half), At(Vec3(1.0, 2.0, 0.2 - 1e-4)));
  ASSERT_EQ(out.size(), 4u);
  ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(std::abs(c.position.x() - 1.0), 0.5, kPlaneTol);
    EXPECT_NEAR(std::abs(c.position.y() - 2.0), 0.3, kPlaneTol);
    EXPECT_NEAR(c.position.z(), -0.5e-4, kPlaneTol);  // halfway between corner and plane
  }
}

TEST(CollisionPlane, BoxWithinMarginGivesFourPositiveGaps) {
  const auto out = OnPlane(Box(Vec3(0.5, 0.3, 0.2)), At(Vec3(0.0, 0.0, 0.2 + 0.003)));
  ASSERT_EQ(out.size(), 4u);
  ExpectPlaneContacts(out, 0.003, Vec3::UnitZ());
}

TEST(CollisionPlane, BoxBeyondMarginGivesNone) {
  EXPECT_TRUE(OnPlane(Box(Vec3(0.5, 0.3, 0.2)), At(Vec3(0.0, 0.0, 0.2 + 0.02))).empty());
}

TEST(CollisionPlane, BoxTiltedOnEdgeGivesTwo) {
  const Vec3 half(0.5, 0.3, 0.2);
  const double angle = 0.5;
  // Lowest edge (along x) at depth 1e-4.
  const double low = half.y() * std::sin(angle) + half.z() * std::cos(angle);
  const auto out = OnPlane(Box(half), At(Vec3(0.0, 0.0, low - 1e-4), Rot(angle, Vec3::UnitX())));
  ASSERT_EQ(out.size(), 2u);
  ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
  EXPECT_NEAR(out[0].position.x(), -0.5, kPlaneTol);
  EXPECT_NEAR(out[1].position.x(), 0.5, kPlaneTol);
}

TEST(CollisionPlane, BoxThinnerThanMarginKeepsFourDeepest) {
  const auto out = OnPlane(Box(Vec3(0.5, 0.5, 0.001)), At(Vec3(0.0, 0.0, 0.0005)));
  ASSERT_EQ(out.size(), 4u);
  ExpectPlaneContacts(out, -0.0005, Vec3::UnitZ());
}

TEST(CollisionPlane, SphereGivesOnePointHalfwayIntoThePlane) {
  const auto out = OnPlane(Round(ShapeType::kSphere, 0.3), At(Vec3(0.4, -0.2, 0.29)));
  ASSERT_EQ(out.size(), 1u);
  ExpectPlaneContacts(out, -0.01, Vec3::UnitZ());
  EXPECT_NEAR((out[0].position - Vec3(0.4, -0.2, -0.005)).norm(), 0.0, kPlaneTol);
}

TEST(CollisionPlane, TiltedPlaneUsesItsOwnNormal) {
  const Mat3 tilt = Rot(0.3, Vec3(1.0, 1.0, 0.0));
  const Vec3 n = tilt.col(2);
  const Vec3 origin(0.5, 0.0, -1.0);
  Geom plane = WorldPlane();
  CollisionWorld world({plane, OnBody(0, Round(ShapeType::kSphere, 0.25))});
  std::vector<ContactPoint> out;
  world.Detect({At(origin, tilt), At(origin + (0.25 + 0.004) * n)}, kMargin, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, 0.004, kPlaneTol);
  EXPECT_NEAR((out[0].normal - n).norm(), 0.0, kPlaneTol);
  EXPECT_NEAR((out[0].position - (origin + 0.002 * n)).norm(), 0.0, kPlaneTol);
}

TEST(CollisionPlane, PlaneAsSecondGeomPointsTowardsIt) {
  CollisionWorld world({OnBody(0, Round(ShapeType::kSphere, 0.3)), WorldPlane()});
  std::vector<ContactPoint> out;
  world.Detect({At(Vec3(0.0, 0.0, 0.29)), Pose::Identity()}, kMargin, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].geom_a, 0);
  EXPECT_EQ(out[0].geom_b, 1);
  EXPECT_NEAR((out[0].normal + Vec3::UnitZ()).norm(), 0.0, kPlaneTol);
  EXPECT_NEAR(out[0].gap, -0.01, kPlaneTol);
}

TEST(CollisionPlane, CapsuleLyingGivesTwoEndPoints) {
  const Mat3 lying = Rot(std::numbers::pi / 2, Vec3::UnitY());  // axis along x
  const auto out =
      OnPlane(Round(ShapeType::kCapsule, 0.1, 0.5), At(Vec3(0.0, 0.0, 0.1 - 1e-4), lying));
  ASSERT_EQ(out.size(), 2u);
  ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
  EXPECT_NEAR(out[0].position.x(), -0.5, kPlaneTol);
  EXPECT_NEAR(out[1].position.x(), 0.5, kPlaneTol);
}

TEST(CollisionPlane, CapsuleStandingGivesOne) {
  const auto out = OnPlane(Round(ShapeType::kCapsule, 0.1, 0.5), At(Vec3(0.0, 0.0, 0.6 - 1e-4)));
  ASSERT_EQ(out.size(), 1u);
  ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
}

TEST(CollisionPlane, CylinderLyingGivesTwoRimPoints) {
  // Any roll about its own axis: one point per rim, at the line of contact.
  for (const double roll : {0.0, 0.4, 1.3}) {
    const Mat3 lying = Rot(std::numbers::pi / 2, Vec3::UnitY()) * Rot(roll, Vec3::UnitZ());
    const auto out =
        OnPlane(Round(ShapeType::kCylinder, 0.1, 0.5), At(Vec3(0.0, 0.0, 0.1 - 1e-4), lying));
    ASSERT_EQ(out.size(), 2u) << "roll " << roll;
    ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
    EXPECT_NEAR(out[0].position.x(), -0.5, kPlaneTol);
    EXPECT_NEAR(out[1].position.x(), 0.5, kPlaneTol);
    EXPECT_NEAR(out[0].position.y(), 0.0, kPlaneTol);
  }
}

TEST(CollisionPlane, CylinderStandingGivesFourRimPoints) {
  const auto out = OnPlane(Round(ShapeType::kCylinder, 0.2, 0.5), At(Vec3(1.0, 0.0, 0.5 - 1e-4)));
  ASSERT_GE(out.size(), 3u);
  EXPECT_EQ(out.size(), 4u);
  ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(std::hypot(c.position.x() - 1.0, c.position.y()), 0.2, kPlaneTol);
  }
}

TEST(CollisionPlane, CylinderSlightlyTiltedStillStandsOnFourPoints) {
  const auto out = OnPlane(Round(ShapeType::kCylinder, 0.2, 0.5),
                           At(Vec3(0.0, 0.0, 0.5), Rot(0.005, Vec3::UnitX())));
  EXPECT_EQ(out.size(), 4u);
  for (const ContactPoint& c : out) EXPECT_LT(c.gap, kMargin);
}

TEST(CollisionPlane, CylinderTiltedOnRimGivesItsDeepestPoint) {
  const double angle = 0.6;
  const double r = 0.2, h = 0.5;
  const double low = h * std::cos(angle) + r * std::sin(angle);
  const auto out = OnPlane(Round(ShapeType::kCylinder, r, h),
                           At(Vec3(0.0, 0.0, low - 1e-4), Rot(angle, Vec3::UnitX())));
  ASSERT_EQ(out.size(), 1u);
  ExpectPlaneContacts(out, -1e-4, Vec3::UnitZ());
}

TEST(CollisionPlane, TwoPlanesNeverCollide) {
  Geom body_plane = WorldPlane();
  body_plane.body = 0;
  CollisionWorld world({WorldPlane(), body_plane});
  std::vector<ContactPoint> out;
  world.Detect({Pose::Identity(), Pose::Identity()}, kMargin, out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace ncp::physics
