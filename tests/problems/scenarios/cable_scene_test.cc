// The cable scene winds the cable onto the post: after half a gripper turn the links behind the
// gripper lie on the post's surface, and no link sinks into the floor or the post or flies off.
// 002's setting (soft grip, contacts on the links' nodes, 1 ms steps) gives the rows it names,
// and on its frames cond reaches res004 1e-6 from a cold start (002 Table V's premise).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/metrics/evaluator.h"
#include "harness/runner.h"
#include "harness/simulate.h"
#include "solvers/registry.h"
#include "solvers/settings.h"
#include "tests/scene_support.h"

namespace ncp {
namespace {

TEST(CableScene, HalfATurnWindsTheCableOntoThePost) {
  const ParamMap params = ParseKeyValues("links=80");
  const SceneEntry& scene = *FindScene("cable");
  SimulateOptions o;
  o.steps = 100;  // 1 s: half a turn at 0.5 turns/s
  // pgs: admm-full with its default adaptive β stalls on this scene (res004 ~1e2 after 200
  // iterations) and then drags the cable wide of the post.
  o.solver = "pgs";
  o.iters = 100;
  o.quiet = true;
  const SimulateResult r = Simulate(scene, params, 1, o);
  const double Rc = r.params.at("cylinder_radius"), rad = r.params.at("radius");
  const double l = r.params.at("length") / 80;
  ASSERT_EQ(r.final_poses.size(), 80u);
  double min_axis = 1e9, max_extent = 0.0, min_z = 1e9, wound_gap = 0.0;
  int wound = 0;
  for (std::size_t i = 0; i < r.final_poses.size(); ++i) {
    const physics::Vec3 c = r.final_poses[i].translation();
    ASSERT_TRUE(c.allFinite()) << "link " << i;
    min_axis = std::min(min_axis, c.head<2>().norm());
    max_extent = std::max(max_extent, c.norm());
    min_z = std::min(min_z, c.z());
    // The gripper has travelled πR ≈ 0.14 m: the links up to that arc length behind it
    // (minus one link at each end) lie against the post.
    const double arc = (i + 0.5) * l;
    if (arc > l && arc < M_PI * (Rc + rad) - l) {
      wound_gap = std::max(wound_gap, c.head<2>().norm() - (Rc + rad));
      ++wound;
    }
  }
  std::printf(
      "cable after half a turn: %d links on the post, largest gap %.2f mm; closest to "
      "the axis %.2f mm (post + radius %.2f mm), lowest centre %.2f mm\n",
      wound, wound_gap * 1e3, min_axis * 1e3, (Rc + rad) * 1e3, min_z * 1e3);
  EXPECT_GE(wound, 5);
  EXPECT_LT(wound_gap, 2e-3);
  // A straight link on the post touches it at its centre, which lies the chord's sagitta inside
  // the circle through the joints; the allowed penetration (slop) is 0.2 mm.
  const double sagitta = l * l / (8 * (Rc + rad));
  EXPECT_GT(min_axis, Rc + rad - sagitta - 5e-4) << "a link inside the post";
  EXPECT_GT(min_z, rad - 1e-3) << "a link inside the floor";
  EXPECT_LT(max_extent, 1.5) << "a link left the scene";
}

// A contact's block on a link: its angular columns vanish when the contact acts on the node.
double WorstAngularColumn(const ContactProblem& p) {
  double worst = 0.0;
  for (const Structure::Block& b : p.structure.blocks)
    if (p.constraints[b.constraint].type == ConstraintType::kContact)
      worst = std::max(worst, b.jacobian.rightCols(3).cwiseAbs().maxCoeff());
  return worst;
}

TEST(CableScene, PaperSettingGripsSoftlyAndPutsContactsOnTheNodes) {
  const ContactProblem ours = testing::FirstStep("cable", "links=40");
  const ContactProblem paper =
      testing::FirstStep("cable", "links=40,hard_grip=0,nodal_contacts=1,dt=0.001");
  ASSERT_GT(ours.num_contacts(), 0);
  ASSERT_GT(paper.num_contacts(), 0);
  EXPECT_EQ(testing::CountConstraints(ours, ConstraintType::kBilateral), 6);
  EXPECT_EQ(testing::CountConstraints(paper, ConstraintType::kBilateral), 0);
  // 39 couplings between links plus the grip: 6 soft rows each.
  EXPECT_EQ(testing::CountConstraints(paper, ConstraintType::kSoft), 6 * 40);
  EXPECT_GT(WorstAngularColumn(ours), 1e-4);  // the lever arm of a 4 mm radius
  EXPECT_EQ(WorstAngularColumn(paper), 0.0);
  EXPECT_DOUBLE_EQ(paper.meta.dt, 0.001);
}

TEST(CableScene, CondReachesOneInAMillionInThePaperSetting) {
  SimulateOptions o = SteppingOptions("admm-full", 200, 100);  // as `generate`
  o.every = 50;
  const SimulateResult r = Simulate(
      *FindScene("cable"), ParseKeyValues("links=80,hard_grip=0,nodal_contacts=1,dt=0.001"), 1, o);
  ASSERT_EQ(r.recorded.size(), 2u);
  const SolverEntry& e = FindSolver("cond");
  const SolverJob job{&e, Settings::Parse("cond", e.settings, {})};
  RunOptions ro;
  ro.budget.iters = 5000;
  ro.budget.tol = 1e-6;
  ro.threads = 1;
  for (const ContactProblem& p : r.recorded) {
    const RunRecord rec = RunOne(p, Evaluator(p), job, ro, nullptr, 0);
    std::printf(
        "cable, 002's setting, %s: %d contacts, cond %s after %d iterations (res004 "
        "%.2g)\n",
        p.meta.name.c_str(), p.num_contacts(), ToString(rec.status), rec.iterations,
        rec.final_metrics[Metric::kRes004]);
    EXPECT_EQ(rec.status, Outcome::kConverged) << rec.message;
  }
}

}  // namespace
}  // namespace ncp
