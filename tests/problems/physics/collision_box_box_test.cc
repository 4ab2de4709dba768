// Box–box manifolds: face to face (resting and within the margin), rotated stacks, edge to edge.
#include <fcl/geometry/shape/box.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>
#include <gtest/gtest.h>

#include "tests/collision_support.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "problems/physics/collision/collision_world.h"

namespace ncp::physics {
namespace {

constexpr double kBoxTol = 1e-10;

using testing::At;
using testing::Detect;
using testing::kMargin;
using testing::Rot;

Geom BoxGeom(int body, const Vec3& half) {
  Geom g;
  g.body = body;
  g.shape.type = ShapeType::kBox;
  g.shape.half_extents = half;
  return g;
}

void ExpectBoxContacts(const std::vector<ContactPoint>& out, double gap, const Vec3& normal) {
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.gap, gap, kBoxTol);
    EXPECT_NEAR((c.normal - normal).norm(), 0.0, kBoxTol);
  }
}

TEST(CollisionBoxBox, FaceToFaceGivesFourPointsWithTheGap) {
  for (const double gap : {-1e-4, 0.003}) {
    const auto out = Detect({BoxGeom(-1, Vec3(1.0, 1.0, 0.5)), BoxGeom(0, Vec3(0.3, 0.2, 0.1))},
                            {At(Vec3::Zero()), At(Vec3(0.2, -0.1, 0.5 + 0.1 + gap))});
    ASSERT_EQ(out.size(), 4u) << "gap " << gap;
    ExpectBoxContacts(out, gap, Vec3::UnitZ());
    for (const ContactPoint& c : out) {
      EXPECT_EQ(c.geom_a, 0);
      EXPECT_EQ(c.geom_b, 1);
      EXPECT_NEAR(std::abs(c.position.x() - 0.2), 0.3, kBoxTol);
      EXPECT_NEAR(std::abs(c.position.y() + 0.1), 0.2, kBoxTol);
      EXPECT_NEAR(c.position.z(), 0.5 + 0.5 * gap, kBoxTol);
    }
  }
}

TEST(CollisionBoxBox, FaceToFaceBeyondMarginGivesNone) {
  EXPECT_TRUE(Detect({BoxGeom(-1, Vec3(1.0, 1.0, 0.5)), BoxGeom(0, Vec3(0.3, 0.2, 0.1))},
                     {At(Vec3::Zero()), At(Vec3(0.0, 0.0, 0.6 + 0.02))})
                  .empty());
}

TEST(CollisionBoxBox, UpperBoxFirstGetsDownwardNormal) {
  const auto out = Detect({BoxGeom(0, Vec3(0.3, 0.2, 0.1)), BoxGeom(-1, Vec3(1.0, 1.0, 0.5))},
                          {At(Vec3(0.0, 0.0, 0.6 - 1e-4)), At(Vec3::Zero())});
  ASSERT_EQ(out.size(), 4u);
  ExpectBoxContacts(out, -1e-4, -Vec3::UnitZ());
}

TEST(CollisionBoxBox, OverhangingBoxIsClippedToTheSupport) {
  // Upper box wider than the lower one along x: the points lie on the lower box's top face.
  const auto out = Detect({BoxGeom(0, Vec3(0.5, 0.5, 0.5)), BoxGeom(1, Vec3(1.0, 0.3, 0.2))},
                          {At(Vec3::Zero()), At(Vec3(0.0, 0.0, 0.7 - 1e-4))});
  ASSERT_EQ(out.size(), 4u);
  ExpectBoxContacts(out, -1e-4, Vec3::UnitZ());
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(std::abs(c.position.x()), 0.5, kBoxTol);
    EXPECT_NEAR(std::abs(c.position.y()), 0.3, kBoxTol);
  }
}

TEST(CollisionBoxBox, RotatedStackKeepsFourPointsOnTheSupport) {
  // Equal cubes, the upper one turned 45° about z: the clipped face is an octagon, cut to 4.
  const double h = 0.5;
  const double gap = -2e-4;
  const auto out = Detect({BoxGeom(0, Vec3::Constant(h)), BoxGeom(1, Vec3::Constant(h))},
                          {At(Vec3::Zero()), At(Vec3(0.0, 0.0, 2 * h + gap),
                                                Rot(std::numbers::pi / 4, Vec3::UnitZ()))});
  ASSERT_EQ(out.size(), 4u);
  ExpectBoxContacts(out, gap, Vec3::UnitZ());
  for (const ContactPoint& c : out) {
    EXPECT_LE(std::abs(c.position.x()), h + kBoxTol);
    EXPECT_LE(std::abs(c.position.y()), h + kBoxTol);
    EXPECT_NEAR(c.position.z(), h + 0.5 * gap, kBoxTol);
  }
  // The kept points span a patch, not a sliver: both x and y extents are large.
  double min_x = 1, max_x = -1, min_y = 1, max_y = -1;
  for (const ContactPoint& c : out) {
    min_x = std::min(min_x, c.position.x());
    max_x = std::max(max_x, c.position.x());
    min_y = std::min(min_y, c.position.y());
    max_y = std::max(max_y, c.position.y());
  }
  EXPECT_GT(max_x - min_x, h);
  EXPECT_GT(max_y - min_y, h);
}

TEST(CollisionBoxBox, SmallTurnedBoxOnLargeOneGivesItsFourCorners) {
  const double angle = 0.3;
  const auto out =
      Detect({BoxGeom(0, Vec3(1.0, 1.0, 0.5)), BoxGeom(1, Vec3(0.3, 0.2, 0.1))},
             {At(Vec3::Zero()), At(Vec3(0.1, 0.1, 0.6 + 0.002), Rot(angle, Vec3::UnitZ()))});
  ASSERT_EQ(out.size(), 4u);
  ExpectBoxContacts(out, 0.002, Vec3::UnitZ());
  const Mat3 r = Rot(angle, Vec3::UnitZ());
  for (const ContactPoint& c : out) {
    const Vec3 local = r.transpose() * (c.position - Vec3(0.1, 0.1, 0.0));
    EXPECT_NEAR(std::abs(local.x()), 0.3, kBoxTol);
    EXPECT_NEAR(std::abs(local.y()), 0.2, kBoxTol);
  }
}

TEST(CollisionBoxBox, ThreeBoxStackGivesFourPointsPerInterface) {
  const Vec3 half(0.4, 0.3, 0.2);
  const double gap = -1e-4;
  std::vector<Geom> geoms = {BoxGeom(0, half), BoxGeom(1, half), BoxGeom(2, half)};
  std::vector<Pose> poses;
  for (int k = 0; k < 3; ++k) {
    poses.push_back(At(Vec3(0.01 * k, -0.02 * k, k * (0.4 + gap)), Rot(0.1 * k, Vec3::UnitZ())));
  }
  const auto out = Detect(geoms, poses);
  ASSERT_EQ(out.size(), 8u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(out[k].geom_a, k / 4);
    EXPECT_EQ(out[k].geom_b, k / 4 + 1);
    EXPECT_NEAR(out[k].gap, gap, kBoxTol);
    EXPECT_NEAR((out[k].normal - Vec3::UnitZ()).norm(), 0.0, kBoxTol);
  }
}

TEST(CollisionBoxBox, TiltedBoxOnItsEdgeGivesTwo) {
  const Vec3 half(0.5, 0.3, 0.2);
  const double angle = 0.5;
  const double low = half.y() * std::sin(angle) + half.z() * std::cos(angle);
  const auto out =
      Detect({BoxGeom(0, Vec3(2.0, 2.0, 0.5)), BoxGeom(1, half)},
             {At(Vec3::Zero()), At(Vec3(0.0, 0.0, 0.5 + low - 1e-4), Rot(angle, Vec3::UnitX()))});
  ASSERT_EQ(out.size(), 2u);
  ExpectBoxContacts(out, -1e-4, Vec3::UnitZ());
}

TEST(CollisionBoxBox, CrossedEdgesGiveOnePoint) {
  // A's top edge runs along y, B's bottom edge along x; they cross above the origin.
  const double h = 0.5;
  const double ridge = h * std::sqrt(2.0);
  for (const double gap : {-1e-3, 0.004}) {
    const auto out =
        Detect({BoxGeom(0, Vec3::Constant(h)), BoxGeom(1, Vec3::Constant(h))},
               {At(Vec3::Zero(), Rot(std::numbers::pi / 4, Vec3::UnitY())),
                At(Vec3(0.0, 0.0, 2 * ridge + gap), Rot(std::numbers::pi / 4, Vec3::UnitX()))});
    ASSERT_EQ(out.size(), 1u) << "gap " << gap;
    EXPECT_NEAR(out[0].gap, gap, kBoxTol);
    EXPECT_NEAR((out[0].normal - Vec3::UnitZ()).norm(), 0.0, kBoxTol);
    EXPECT_NEAR((out[0].position - Vec3(0.0, 0.0, ridge + 0.5 * gap)).norm(), 0.0, kBoxTol);
  }
}

TEST(CollisionBoxBox, CornerToCornerAcrossAGapGivesOnePoint) {
  // Side by side, offset diagonally: no face overlaps the other, the nearest features are the
  // two vertical edges, 0.002·√2 apart.
  const auto out = Detect({BoxGeom(0, Vec3::Constant(0.5)), BoxGeom(1, Vec3::Constant(0.5))},
                          {At(Vec3::Zero()), At(Vec3(1.002, 1.002, 0.3))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].gap, 0.002 * std::sqrt(2.0), 1e-6);
  EXPECT_NEAR((out[0].normal - Vec3(1.0, 1.0, 0.0).normalized()).norm(), 0.0, 1e-5);
}

// Random boxes, rotations and offsets: half extents in [0.1, 0.6], centers within 1.6.
struct RandomPair {
  Vec3 half_a, half_b;
  Pose pose_a, pose_b;
};

RandomPair DrawPair(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), h(0.1, 0.6);
  const auto rotation = [&] {
    return Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized().toRotationMatrix();
  };
  RandomPair p;
  p.half_a = Vec3(h(rng), h(rng), h(rng));
  p.half_b = Vec3(h(rng), h(rng), h(rng));
  p.pose_a = At(Vec3::Zero(), rotation());
  p.pose_b = At(Vec3(u(rng), u(rng), u(rng)).normalized() * 1.6 * u(rng), rotation());
  return p;
}

TEST(CollisionBoxBox, PenetrationDepthAgreesWithFcl) {
  // FCL's box–box (a separating-axis test too) prefers faces a little more: the depths agree
  // except where the two preferences pick different features of nearly equal depth.
  std::mt19937 rng(5);
  int penetrating = 0, agree = 0;
  for (int t = 0; t < 2000; ++t) {
    const RandomPair p = DrawPair(rng);
    const auto out =
        Detect({BoxGeom(0, p.half_a), BoxGeom(1, p.half_b)}, {p.pose_a, p.pose_b}, 0.0);
    fcl::CollisionObjectd a(std::make_shared<fcl::Boxd>(2.0 * p.half_a), p.pose_a);
    fcl::CollisionObjectd b(std::make_shared<fcl::Boxd>(2.0 * p.half_b), p.pose_b);
    fcl::CollisionResultd result;
    fcl::collide(&a, &b, fcl::CollisionRequestd(4, true), result);
    ASSERT_EQ(out.empty(), result.numContacts() == 0) << "pair " << t;
    if (out.empty()) continue;
    ++penetrating;
    double depth = 0.0, gap = 0.0;
    for (size_t k = 0; k < result.numContacts(); ++k) {
      depth = std::max(depth, result.getContact(k).penetration_depth);
    }
    for (const ContactPoint& c : out) {
      gap = std::min(gap, c.gap);
      EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    }
    EXPECT_LE(out.size(), 4u);
    if (std::abs(gap + depth) < 1e-6) ++agree;
  }
  EXPECT_GT(penetrating, 1000);
  EXPECT_GE(agree, 0.97 * penetrating);
}

TEST(CollisionBoxBox, GapOfSeparatedBoxesIsTheirDistance) {
  std::mt19937 rng(9);
  const double margin = 0.05;
  int near = 0;
  for (int t = 0; t < 20000; ++t) {
    const RandomPair p = DrawPair(rng);
    fcl::CollisionObjectd a(std::make_shared<fcl::Boxd>(2.0 * p.half_a), p.pose_a);
    fcl::CollisionObjectd b(std::make_shared<fcl::Boxd>(2.0 * p.half_b), p.pose_b);
    fcl::DistanceResultd result;
    const double distance = fcl::distance(&a, &b, fcl::DistanceRequestd(true), result);
    if (distance <= 0.0) continue;
    const auto out =
        Detect({BoxGeom(0, p.half_a), BoxGeom(1, p.half_b)}, {p.pose_a, p.pose_b}, margin);
    if (distance >= margin) {
      EXPECT_TRUE(out.empty()) << "pair " << t;
      continue;
    }
    ++near;
    ASSERT_FALSE(out.empty()) << "pair " << t;
    double gap = out[0].gap;
    for (const ContactPoint& c : out) gap = std::min(gap, c.gap);
    EXPECT_NEAR(gap, distance, 1e-6) << "pair " << t;
  }
  EXPECT_GT(near, 300);
}

}  // namespace
}  // namespace ncp::physics
