// SDF geometry: the dish module of 004 App. B against brute force on a dense sampling of its
// surface and against finite differences; Frank–Wolfe SDF–triangle contacts against analytic
// answers for a plane and a sphere.
#include <gtest/gtest.h>

#include <random>

#include "common/error.h"
#include "problems/physics/sdf/dish_sdf.h"
#include "problems/physics/sdf/frank_wolfe.h"

namespace ncp::physics {
namespace {

using V2 = Eigen::Vector2d;
using V3 = Eigen::Vector3d;

// Exact distance from a point to the closest point of a triangle (Ericson's region tests done
// by brute force: the face's plane when the projection is inside, else the three edges).
double SegDist(const V3& p, const V3& a, const V3& b) {
  const V3 e = b - a;
  const double t = std::clamp((p - a).dot(e) / e.squaredNorm(), 0.0, 1.0);
  return (p - (a + t * e)).norm();
}
double TriangleDist(const V3& p, const V3& a, const V3& b, const V3& c) {
  const V3 n = (b - a).cross(c - a).normalized();
  const V3 q = p - n.dot(p - a) * n;
  const double w0 = (b - q).cross(c - q).dot(n), w1 = (c - q).cross(a - q).dot(n),
               w2 = (a - q).cross(b - q).dot(n);
  if (w0 >= 0 && w1 >= 0 && w2 >= 0) return std::abs(n.dot(p - a));
  return std::min({SegDist(p, a, b), SegDist(p, b, c), SegDist(p, c, a)});
}

class DishShapes : public ::testing::TestWithParam<int> {
 protected:
  DishSdf Make() const {
    switch (GetParam()) {
      case 0:
        return DishSdf::Bowl();
      case 1:
        return DishSdf::Plate();
      case 2:
        return DishSdf::Pot();
      default:
        return DishSdf::Bottle();
    }
  }
};

// |SDF| equals the distance to a dense sampling of the surface. The surface is one of
// revolution, so the 3-D distance is the meridian-plane distance to its boundary curve, sampled
// every 2 µm (chord error below 1e-9 m for the ≥ 3 mm roundings); inside points are negative.
TEST_P(DishShapes, DistanceMatchesBruteForceOnTheSurface) {
  const DishSdf dish = Make();
  const std::vector<V2> curve = dish.Boundary(2e-6);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-0.15, 0.15), uz(-0.05, 0.15);
  double worst = 0.0;
  for (int k = 0; k < 300; ++k) {
    const V3 p(u(rng), u(rng), uz(rng));
    const V2 q(std::hypot(p.x(), p.y()), p.z());
    double brute = 1e300;
    for (std::size_t i = 0; i + 1 < curve.size(); ++i) {
      const V2 e = curve[i + 1] - curve[i];
      const double t = std::clamp((q - curve[i]).dot(e) / e.squaredNorm(), 0.0, 1.0);
      brute = std::min(brute, (q - (curve[i] + t * e)).norm());
    }
    const double phi = dish.Eval(p, nullptr);
    worst = std::max(worst, std::abs(std::abs(phi) - brute));
  }
  std::printf("dish %d: worst | |sdf| - brute force | = %.2e m over 300 points\n", GetParam(),
              worst);
  EXPECT_LE(worst, 1e-6);
}

TEST_P(DishShapes, GradientMatchesFiniteDifferences) {
  const DishSdf dish = Make();
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(-0.15, 0.15), uz(-0.05, 0.15);
  double worst = 0.0;
  int checked = 0;
  for (int k = 0; k < 300; ++k) {
    const V3 p(u(rng), u(rng), uz(rng));
    V3 g;
    dish.Eval(p, &g);
    const double h = 1e-7;
    V3 fd;
    for (int i = 0; i < 3; ++i) {
      V3 e = V3::Zero();
      e[i] = h;
      fd[i] = (dish.Eval(p + e, nullptr) - dish.Eval(p - e, nullptr)) / (2 * h);
    }
    // Skip points within 1e-5 of the field's kinks (the medial axis: equal distance to both
    // segments, or the axis of revolution).
    V2 g2;
    const V2 q(std::hypot(p.x(), p.y()), p.z());
    if (q.x() < 1e-5) continue;
    const double d1 = std::abs(dish.Eval2d(q + V2(1e-5, 0), nullptr) - dish.Eval2d(q, &g2));
    if (d1 > 1.01e-5) continue;
    worst = std::max(worst, (g - fd).norm());
    ++checked;
  }
  std::printf("dish %d: worst |grad - finite differences| = %.2e over %d points\n", GetParam(),
              worst, checked);
  EXPECT_GE(checked, 250);
  EXPECT_LE(worst, 1e-6);
}

TEST_P(DishShapes, MeshLiesOnTheSurfaceAndFacesOutward) {
  const DishSdf dish = Make();
  const TriangleMesh m = dish.Triangulate(0.004, 48);
  std::printf("dish %d: %zu triangles at step 4 mm, 48 sectors\n", GetParam(), m.triangles.size());
  EXPECT_GE(m.triangles.size(), 500u);
  double worst = 0.0;
  for (const V3& v : m.vertices) worst = std::max(worst, std::abs(dish.Eval(v, nullptr)));
  EXPECT_LE(worst, 1e-9);
  int outward = 0;
  for (const Eigen::Vector3i& t : m.triangles) {
    const V3 a = m.vertices[t[0]], b = m.vertices[t[1]], c = m.vertices[t[2]];
    V3 g;
    dish.Eval((a + b + c) / 3.0, &g);
    outward += (b - a).cross(c - a).dot(g) > 0;
  }
  EXPECT_GE(outward, static_cast<int>(0.98 * m.triangles.size()));
  EXPECT_GT(dish.Volume(), 0.0);
}

// The ball of BoundingRadius holds the solid (collision culling relies on it) and is tight: the
// farthest surface point reaches it.
TEST_P(DishShapes, BoundingRadiusHoldsTheSurface) {
  const DishSdf dish = Make();
  double farthest = 0.0;
  for (const V2& q : dish.Boundary(1e-4)) farthest = std::max(farthest, q.norm());
  std::printf("dish %d: bounding radius %.6f m, farthest surface point %.6f m\n", GetParam(),
              dish.BoundingRadius(), farthest);
  EXPECT_LE(farthest, dish.BoundingRadius() + 1e-12);
  EXPECT_GE(farthest, dish.BoundingRadius() - 1e-6);
}

// 3: the pouring scene's bottle (wall leaning in from the base to the mouth).
INSTANTIATE_TEST_SUITE_P(BowlPlatePot, DishShapes, ::testing::Values(0, 1, 2, 3));

TEST(DishSdf, RejectsDegenerateProfiles) {
  EXPECT_THROW(DishSdf(0.0, {0.1, 0.0}, {0.2, 0.1}, 0.0), Error);
  EXPECT_THROW(DishSdf(0.0, {0.0, 0.0}, {0.2, 0.1}, 0.01), Error);
  EXPECT_THROW(DishSdf(0.0, {0.1, 0.0}, {0.1, 0.0}, 0.01), Error);
  try {
    DishSdf(0.0, {0.1, 0.0}, {0.2, 0.1}, -1.0);
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "dish.thickness = -1: must be > 0");
  }
}

// A plane: the minimum of a linear field over a triangle is at its lowest vertex.
TEST(FrankWolfe, TriangleAgainstAPlaneGivesTheLowestVertex) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  const PlaneSdf plane;
  for (int k = 0; k < 200; ++k) {
    const V3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
    const SdfTriangleContact r = FrankWolfeTriangle(plane, a, b, c);
    const double expect = std::min({a.z(), b.z(), c.z()});
    EXPECT_NEAR(r.distance, expect, 1e-15);
    EXPECT_NEAR(r.point.z(), expect, 1e-15);
    EXPECT_EQ(r.normal, V3::UnitZ());
  }
}

// A sphere: the minimum over a triangle is the distance from its centre to the triangle minus
// the radius, at the triangle's closest point (face, edge and vertex cases all occur).
TEST(FrankWolfe, TriangleAgainstASphereGivesTheClosestPoint) {
  std::mt19937_64 rng(10);
  std::uniform_real_distribution<double> u(-1, 1);
  const SphereSdf sphere(0.3);
  double worst = 0.0;
  for (int k = 0; k < 300; ++k) {
    const V3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
    const SdfTriangleContact r = FrankWolfeTriangle(sphere, a, b, c, {400, 0.0, 80});
    const double expect = TriangleDist(V3::Zero(), a, b, c) - 0.3;
    worst = std::max(worst, std::abs(r.distance - expect));
  }
  std::printf("Frank-Wolfe vs sphere: worst distance error %.2e over 300 triangles\n", worst);
  EXPECT_LE(worst, 1e-6);
}

}  // namespace
}  // namespace ncp::physics
