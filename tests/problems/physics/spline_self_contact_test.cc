// Self-collision along a spline (003 §6, HAGFISH): the Catmull–Rom centerline passes through its
// nodes with the finite-difference slope; a hairpin of two straight runs a distance D apart has
// the analytic gap D − 2r with the normal across the runs, and a helix touches its next coil at
// its pitch; on random curves every contact's Newton search is no farther than the best point of
// a dense sampling, tapering or not; a straight tube never touches itself; bad tubes are one-line
// errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "common/error.h"
#include "problems/physics/collision/spline_self_contact.h"

namespace ncp::physics {
namespace {

// Two straight runs along x, `d` apart in y, joined by a half circle of diameter d.
SplineTube Hairpin(double d, double r, int run_nodes, double h) {
  SplineTube t;
  for (int k = 0; k < run_nodes; ++k) t.nodes.emplace_back(k * h, 0.0, 0.0);
  const double x0 = (run_nodes - 1) * h;
  for (int k = 1; k < 8; ++k) {
    const double a = M_PI * k / 8;
    t.nodes.emplace_back(x0 + 0.5 * d * std::sin(a), 0.5 * d * (1 - std::cos(a)), 0.0);
  }
  for (int k = 0; k < run_nodes; ++k) t.nodes.emplace_back(x0 - k * h, d, 0.0);
  t.radius.assign(t.nodes.size(), r);
  t.skip = 12;  // the bend's own pieces stay apart
  return t;
}

TEST(SplineSelfContact, TheSplinePassesThroughItsNodesWithTheSlopeOfItsDerivative) {
  SplineTube t;
  std::mt19937 rng(3);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int k = 0; k < 6; ++k) t.nodes.emplace_back(n(rng), n(rng), n(rng));
  t.radius.assign(6, 0.1);
  for (int seg = 0; seg < 5; ++seg) {
    EXPECT_LT((EvaluateSpline(t, seg, 0.0).c - t.nodes[seg]).norm(), 1e-14);
    EXPECT_LT((EvaluateSpline(t, seg, 1.0).c - t.nodes[seg + 1]).norm(), 1e-14);
    const double u = 0.3, h = 1e-6;
    const Vec3 fd = (EvaluateSpline(t, seg, u + h).c - EvaluateSpline(t, seg, u - h).c) / (2 * h);
    EXPECT_LT((fd - EvaluateSpline(t, seg, u).dc).norm(), 1e-7);
    const Vec3 fdd =
        (EvaluateSpline(t, seg, u + h).dc - EvaluateSpline(t, seg, u - h).dc) / (2 * h);
    EXPECT_LT((fdd - EvaluateSpline(t, seg, u).ddc).norm(), 1e-6);
  }
  // C¹ across nodes: the slope leaving a segment is the slope entering the next.
  for (int seg = 0; seg < 4; ++seg)
    EXPECT_LT((EvaluateSpline(t, seg, 1.0).dc - EvaluateSpline(t, seg + 1, 0.0).dc).norm(), 1e-13);
}

TEST(SplineSelfContact, AHairpinOfTwoStraightRunsHasTheAnalyticGapAcrossThem) {
  const double d = 0.019, r = 0.01;  // the runs' tubes overlap by 1 mm
  const SplineTube t = Hairpin(d, r, 20, 0.005);
  std::vector<SplineContact> out;
  SplineSelfContacts(t, 0.002, out);
  std::vector<double> x;  // where the straight runs touch
  for (const SplineContact& c : out) {
    // Contacts of the straight runs: segments 0–17 and 29–45 (the two segments at each end of
    // the bend take its curvature through their tangents).
    if (!(c.seg_a <= 17 && c.seg_b >= 29)) continue;
    x.push_back(c.position.x());
    EXPECT_NEAR(c.gap, d - 2 * r, 1e-12) << c.seg_a << " " << c.seg_b;
    EXPECT_NEAR(c.normal.y(), 1.0, 1e-12);
    EXPECT_NEAR(c.position.y(), 0.5 * d, 1e-12);
    EXPECT_TRUE(c.converged);
  }
  // The line contact is held along the runs' length (0 to 17 segments of 5 mm): no stretch of
  // more than two segments without a contact.
  ASSERT_FALSE(x.empty());
  std::sort(x.begin(), x.end());
  EXPECT_LE(x.front(), 0.010);
  EXPECT_GE(x.back(), 0.075);
  for (std::size_t k = 1; k < x.size(); ++k) EXPECT_LE(x[k] - x[k - 1], 0.010 + 1e-12) << k;
}

// A helix of radius R and pitch p touches its next coil where the same angle comes round again:
// the coils' centerlines are p (1 − p²/(8π² R²)) apart to second order, so the gap is that less
// 2r along the overlapping half turn.
TEST(SplineSelfContact, AHelixTouchesItsNextCoilAtItsPitch) {
  const double R = 0.05, pitch = 0.018, r = 0.01;
  SplineTube t;
  const int per_turn = 72;
  for (int k = 0; k <= per_turn * 3 / 2; ++k) {
    const double a = 2 * M_PI * k / per_turn;
    t.nodes.emplace_back(R * std::cos(a), R * std::sin(a), pitch * a / (2 * M_PI));
  }
  t.radius.assign(t.nodes.size(), r);
  t.skip = per_turn / 2;  // half a turn apart the coil is 2R = 0.1 m across: never touching
  std::vector<SplineContact> out;
  SplineSelfContacts(t, 0.001, out);
  const double expected = pitch * (1 - pitch * pitch / (8 * M_PI * M_PI * R * R)) - 2 * r;
  ASSERT_GE(out.size(), static_cast<std::size_t>(per_turn / 2 - 2));
  for (const SplineContact& c : out) {
    EXPECT_NEAR(c.seg_b - c.seg_a, per_turn, 1) << c.seg_a << " " << c.seg_b;
    EXPECT_NEAR(c.gap, expected, 2e-6) << c.seg_a << " " << c.seg_b;
    EXPECT_NEAR(std::abs(c.normal.z()), 1.0, 1e-2);
  }
}

// Odd trials taper the tube (8 mm to 2 mm), where the smallest gap and the closest centerlines
// fall at different points.
TEST(SplineSelfContact, NewtonsGapIsNeverLargerThanTheBestOfADenseSampling) {
  std::mt19937 rng(11);
  std::normal_distribution<double> n(0.0, 0.01);
  for (int trial = 0; trial < 5; ++trial) {
    SplineTube t;
    Vec3 p = Vec3::Zero(), dir(0.01, 0, 0);
    for (int k = 0; k < 40; ++k) {  // a smooth random walk that folds onto itself
      t.nodes.push_back(p);
      dir = (dir + Vec3(n(rng), n(rng), n(rng))).normalized() * 0.01;
      p += dir;
    }
    for (int k = 0; k < 40; ++k) t.radius.push_back(trial % 2 ? 0.008 - 0.006 * k / 39 : 0.005);
    t.skip = 3;
    std::vector<SplineContact> out;
    SplineSelfContacts(t, 1.0, out);  // a margin that makes every tested pair a contact
    // Only minima of the whole curves' distance are contacts: a pair's minimum on a segment's
    // end that the curve continues past belongs to the neighbouring pair.
    ASSERT_GT(out.size(), 5u);
    for (const SplineContact& c : out) {
      EXPECT_LE(c.gap, SampledSegmentGap(t, c.seg_a, c.seg_b, 64) + 1e-12)
          << trial << ": " << c.seg_a << " " << c.seg_b;
      const double centers =
          (EvaluateSpline(t, c.seg_a, c.u).c - EvaluateSpline(t, c.seg_b, c.w).c).norm();
      if (trial % 2 == 0) {
        EXPECT_NEAR(c.gap, centers - 0.01, 1e-15);
      }
    }
  }
}

// Two straight runs whose centerlines cross exactly on a node of each: the gap is V-shaped there
// (no zero slope anywhere), and the crossing is reported once, by the pair that starts on it.
TEST(SplineSelfContact, RunsCrossingOnANodeMakeOneContact) {
  SplineTube t;
  for (int k = -4; k <= 4; ++k) t.nodes.emplace_back(0.005 * k, 0.0, 0.0);  // node 4 at 0
  for (const Vec3& p : {Vec3(0.05, 0, 0), Vec3(0.05, -0.05, 0), Vec3(0, -0.05, 0)})
    t.nodes.push_back(p);                                                   // a loop back
  for (int k = -4; k <= 4; ++k) t.nodes.emplace_back(0.0, 0.005 * k, 0.0);  // node 16 at 0
  t.radius.assign(t.nodes.size(), 0.004);
  t.skip = 3;
  std::vector<SplineContact> out;
  SplineSelfContacts(t, 0.001, out);
  int crossing = 0;
  for (const SplineContact& c : out) {
    if (c.gap > -0.0079) continue;
    ++crossing;
    EXPECT_EQ(c.seg_a, 4);
    EXPECT_EQ(c.seg_b, 16);
    EXPECT_NEAR(c.gap, -0.008, 1e-12);
    EXPECT_LT(c.position.norm(), 1e-12);
  }
  EXPECT_EQ(crossing, 1) << out.size() << " contacts";
}

// Pieces of a straight tube always overlap their neighbours, but the distance along it has no
// minimum away from a pair's ends: whatever `skip`, it never touches itself.
TEST(SplineSelfContact, AStraightTubeNeverTouchesItself) {
  SplineTube t;
  for (int k = 0; k < 30; ++k) t.nodes.emplace_back(0.004 * k, 0.0, 0.0);
  t.radius.assign(30, 0.005);
  for (int skip = 1; skip <= 4; ++skip) {
    t.skip = skip;
    std::vector<SplineContact> out;
    SplineSelfContacts(t, 0.001, out);
    EXPECT_TRUE(out.empty()) << skip << ": " << out.size();
  }
}

TEST(SplineSelfContact, BadTubesAreOneLineErrors) {
  std::vector<SplineContact> out;
  SplineTube t;
  t.nodes = {Vec3::Zero()};
  t.radius = {0.1};
  EXPECT_THROW(SplineSelfContacts(t, 0.0, out), Error);
  t.nodes = {Vec3::Zero(), Vec3::UnitX(), Vec3(2, 0, 0)};
  t.radius = {0.1, 0.1};
  try {
    SplineSelfContacts(t, 0.0, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "spline tube: radius has 2 entries: must have one per node (3)");
  }
  t.radius = {0.1, 0.0, 0.1};
  EXPECT_THROW(SplineSelfContacts(t, 0.0, out), Error);
  t.radius = {0.1, 0.1, 0.1};
  t.skip = 0;
  EXPECT_THROW(SplineSelfContacts(t, 0.0, out), Error);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace ncp::physics
