// The umbrella scene (003 §6): Table 2's DOF counts, the loop closures and springs it is built
// from, and over a simulated second (stepped by redmax) every stretcher tip stays on its rib's
// middle joint while the canopy moves.
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

ContactProblem FirstStep(const std::string& params) {
  return testing::FirstStep("umbrella", params);
}
using testing::CountConstraints;

TEST(UmbrellaScene, Table2SizesAndRows) {
  // 003 Table 2: 241, 385, 529, 769, 1105 DOF.
  const int stretchers[] = {5, 8, 11, 16, 23}, dofs[] = {241, 385, 529, 769, 1105};
  for (int i = 0; i < 2; ++i)  // the two smallest built here; the rule is 48 s + 1
    EXPECT_EQ(FirstStep(fmt::format("stretcher_pieces={}", stretchers[i])).num_dofs(), dofs[i]);
  const ContactProblem p = FirstStep("stretcher_pieces=2");
  EXPECT_EQ(p.num_dofs(), 97);
  EXPECT_EQ(CountConstraints(p, ConstraintType::kBilateral), 24);  // 8 ball-joint loop closures
  // canopy springs 8 × 4 rib pieces, the runner spring, joint springs of the ribs 8 × 2 × 4,
  // of the stretchers 8 × 2 × 2 and of the runner's slide
  EXPECT_EQ(CountConstraints(p, ConstraintType::kSoft), 32 + 1 + 64 + 32 + 1);
  EXPECT_EQ(p.num_contacts(), 0);
  for (std::size_t j = 0; j < p.structure.subsystems.size(); ++j)
    EXPECT_TRUE(p.structure.IsTree(static_cast<int>(j))) << j;
  EXPECT_LT(p.e.cwiseAbs().maxCoeff(), 1e-9);  // built at rest: springs and closures at zero
}

TEST(UmbrellaScene, LoopClosuresHoldOverASimulatedSecond) {
  const SceneEntry& scene = *FindScene("umbrella");
  SimulateOptions o = SteppingOptions("redmax", 1, 100);
  const int ns = 3, nr = 6;
  const SimulateResult r = Simulate(scene, ParseKeyValues("stretcher_pieces=3"), 1, o);
  const double R = r.params.at("rib_length"), T = r.params.at("tube_height");
  const double open = r.params.at("open_deg") * M_PI / 180, drop = r.params.at("runner_drop");
  const double lr = R / nr;
  ASSERT_EQ(static_cast<int>(r.final_poses.size()), 8 * 2 * nr + 1 + 8 * 2 * ns);
  double worst = 0.0, moved = 0.0;
  for (int a = 0; a < 8; ++a) {
    const double phi = 2 * M_PI * a / 8;
    const physics::Vec3 dir(std::cos(phi) * std::cos(open), std::sin(phi) * std::cos(open),
                            -std::sin(open));
    const physics::Vec3 mid = physics::Vec3(0, 0, T) + 0.5 * R * dir;
    const double ls = (mid - physics::Vec3(0, 0, T - drop)).norm() / ns;
    const physics::Pose& rib = r.final_poses[a * 2 * nr + 2 * (nr / 2 - 1) + 1];
    const physics::Pose& tip = r.final_poses[8 * 2 * nr + 1 + a * 2 * ns + 2 * (ns - 1) + 1];
    const physics::Vec3 on_rib = rib * physics::Vec3(lr, 0, 0);
    worst = std::max(worst, (on_rib - tip * physics::Vec3(ls, 0, 0)).norm());
    moved = std::max(moved, (on_rib - mid).norm());
    const physics::Pose& last = r.final_poses[a * 2 * nr + 2 * (nr - 1) + 1];
    ASSERT_TRUE(last.translation().allFinite());
  }
  double worst_step = 0.0;
  for (const StepStats& s : r.steps) worst_step = std::max(worst_step, s.res004);
  std::printf(
      "umbrella after 1 s: stretcher tips off their rib joints by at most %.3g m; rib "
      "middles moved up to %.3g m; worst step res004 %.2g\n",
      worst, moved, worst_step);
  EXPECT_LT(worst, 1e-8);
  EXPECT_GT(moved, 1e-4) << "the umbrella did not move";
  EXPECT_LT(worst_step, 1e-6);
}

}  // namespace
}  // namespace ncp
