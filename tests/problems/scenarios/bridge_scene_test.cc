// The bridge scene (003 §6): the DOF and rows Table 2's sizes are built from, cables at rest at
// their rest length, the structure layer a tree per deck and tower, and over a simulated second
// the pinned ends hold while the deck hangs in the cables, with rigid and with flexible towers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "harness/simulate.h"
#include "tests/scene_support.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

ContactProblem FirstStep(const std::string& params) { return testing::FirstStep("bridge", params); }
using testing::CountConstraints;

TEST(BridgeScene, RigidTowersGiveOneDofPerPieceOneSpringEachAndAPin) {
  const ContactProblem p = FirstStep("pieces=16");
  EXPECT_EQ(p.num_dofs(), 16);
  EXPECT_EQ(CountConstraints(p, ConstraintType::kSoft), 16);
  EXPECT_EQ(CountConstraints(p, ConstraintType::kBilateral), 2);
  EXPECT_EQ(p.num_contacts(), 0);
  ASSERT_EQ(p.structure.subsystems.size(), 1u);
  EXPECT_TRUE(p.structure.IsTree(0));
  // At rest every cable has its rest length and the pin its place: e = 0 (to rounding).
  EXPECT_LT(p.e.cwiseAbs().maxCoeff(), 1e-9);
}

TEST(BridgeScene, FlexibleTowersAddTwoHingedTowersWithJointSprings) {
  const ContactProblem p = FirstStep("pieces=16,flexible=1");
  EXPECT_EQ(p.num_dofs(), 16 + 2 * 4);                                // towers of pieces / 4
  EXPECT_EQ(CountConstraints(p, ConstraintType::kSoft), 16 + 2 * 4);  // cables, tower joint springs
  EXPECT_EQ(CountConstraints(p, ConstraintType::kBilateral), 2);
  ASSERT_EQ(p.structure.subsystems.size(), 3u);
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(p.structure.IsTree(j)) << j;
  // 003 Table 2's flexible sizes: 40 deck pieces → 60 DOF.
  EXPECT_EQ(FirstStep("pieces=40,flexible=1").num_dofs(), 60);
}

// anchor_spread = 1 hangs the nearer cables from lower tower pieces: their rows reach fewer of
// the tower's joints (columns 16–23: two towers of 4) than a fan's, whose cables all hang from
// the top piece and reach every joint of their tower; at rest both have their rest length.
TEST(BridgeScene, SpreadAnchorsHangTheNearerCablesFromLowerTowerPieces) {
  for (const int spread : {0, 1}) {
    const ContactProblem p =
        FirstStep(fmt::format("pieces=16,flexible=1,anchor_spread={}", spread));
    ASSERT_EQ(p.num_dofs(), 24);
    EXPECT_LT(p.e.cwiseAbs().maxCoeff(), 1e-9) << "spread " << spread;
    const SpMat Jr = SpMat(p.J.transpose());  // column r: row r of J
    int fewest = 4, cables = 0;
    for (const Constraint& c : p.constraints) {
      if (c.type != ConstraintType::kSoft) continue;
      int deck = 0, tower = 0;
      for (SpMat::InnerIterator it(Jr, c.row); it; ++it)
        if (it.value() != 0.0) ++(it.row() < 16 ? deck : tower);
      if (deck == 0 || tower == 0) continue;  // a tower joint spring
      ++cables;
      fewest = std::min(fewest, tower);
    }
    EXPECT_EQ(cables, 16) << "spread " << spread;
    // A piece centred under its tower (10 pieces: the third and the eighth) keeps a cable.
    EXPECT_NO_THROW(FirstStep(fmt::format("pieces=10,flexible=1,anchor_spread={}", spread)));
    if (spread == 0)
      EXPECT_EQ(fewest, 4) << "a fan's cable below its tower's top";
    else
      EXPECT_LT(fewest, 4) << "no cable below its tower's top";
  }
}

// One simulated second, stepped by redmax (a linear solve per step): the pin (last deck piece's
// far end) stays within 1 mm of its place, every deck piece stays finite and hangs by less than
// 1 m (deck 100 m, cables EA = 2e8 N), and the deck does move (the cables stretch under its
// weight).
void ExpectDeckHangs(const std::string& params) {
  const SceneEntry& scene = *FindScene("bridge");
  // PCG to 1e-6 relative, refined until res004 ≤ 1e-10 (at most 3 solves)
  SimulateOptions o = SteppingOptions("redmax", 3, 100);
  o.step_tol = 1e-10;
  const SimulateResult r = Simulate(scene, ParseKeyValues(params), 1, o);
  const int n = static_cast<int>(r.params.at("pieces"));
  const double L = r.params.at("length"), H = r.params.at("height");
  ASSERT_GE(static_cast<int>(r.final_poses.size()), n);
  double lowest = H, highest = -1e9;
  for (int i = 0; i < n; ++i) {
    const physics::Vec3 c = r.final_poses[i].translation();
    ASSERT_TRUE(c.allFinite()) << "deck piece " << i;
    lowest = std::min(lowest, c.z());
    highest = std::max(highest, c.z());
  }
  const physics::Pose& last = r.final_poses[n - 1];
  const physics::Vec3 end = last * physics::Vec3(L / n, 0, 0);
  std::printf(
      "bridge %s after 1 s: far end off its pin by %.3g mm, deck joints between z = %.4f "
      "and %.4f m (deck at %.1f m)\n",
      params.c_str(), 1e3 * (end - physics::Vec3(L, 0, H)).norm(), lowest, highest, H);
  EXPECT_LT((end - physics::Vec3(L, 0, H)).norm(), 1e-3);
  EXPECT_GT(lowest, H - 1.0);
  EXPECT_LT(highest, H + 1.0);
  EXPECT_LT(lowest, H - 1e-6) << "the deck did not move";
  for (const StepStats& s : r.steps) EXPECT_LT(s.res004, 1e-8) << "step " << s.step;
}

TEST(BridgeScene, RigidTowersDeckHangsAndThePinHolds) { ExpectDeckHangs("pieces=24"); }
TEST(BridgeScene, FlexibleTowersDeckHangsAndThePinHolds) {
  ExpectDeckHangs("pieces=24,flexible=1");
  ExpectDeckHangs("pieces=24,flexible=1,anchor_spread=1");
}

}  // namespace
}  // namespace ncp
