// SimulateOptions::warm_steps starts each step's solve from the previous step's solution (the
// trajectory is the same, the solves shorter), and v_step_tol stops a step's solve on the
// velocity's relative step (003's kind of stop): a looser step stops sooner, before the cap.
#include <gtest/gtest.h>

#include "harness/simulate.h"
#include "problems/scenarios/rigid/scene.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

constexpr int kWarmChainSteps = 40;

SimulateOptions WarmChainSim() { return SteppingOptions("bisp", 500, kWarmChainSteps); }

int SumOfIterations(const SimulateResult& r) {
  int n = 0;
  for (const StepStats& s : r.steps) n += s.iterations;
  return n;
}

TEST(SimulateWarm, WarmStepsKeepTheTrajectoryAndShortenTheSolves) {
  // A box pushed over the floor: one persistent contact, whose multipliers change little per step.
  SimulateOptions sim = WarmChainSim();
  sim.solver = "pgs";
  sim.iters = 5000;
  sim.step_tol = 1e-9;
  const SimulateResult cold = Simulate(*FindScene("box_push"), {}, 1, sim);
  sim.warm_steps = true;
  const SimulateResult warm = Simulate(*FindScene("box_push"), {}, 1, sim);
  ASSERT_EQ(cold.steps.size(), warm.steps.size());
  // The first step has no previous one: the same solve.
  EXPECT_EQ(cold.steps[0].iterations, warm.steps[0].iterations);
  for (const SimulateResult* r : {&cold, &warm})
    for (const StepStats& s : r->steps) EXPECT_LE(s.res004, 1e-9) << "step " << s.step;
  EXPECT_LT(SumOfIterations(warm), SumOfIterations(cold));
  // Both solve every step to res004 1e-9: the box ends where it ends, to 1e-6 m.
  ASSERT_EQ(cold.final_poses.size(), warm.final_poses.size());
  for (std::size_t b = 0; b < cold.final_poses.size(); ++b)
    EXPECT_LT((cold.final_poses[b].translation() - warm.final_poses[b].translation()).norm(), 1e-6)
        << "body " << b;
}

TEST(SimulateWarm, AVelocityStepStopsTheSolveSoonerTheLooserItIs) {
  SimulateOptions sim = WarmChainSim();
  sim.warm_steps = true;
  sim.v_step_tol = 1e-2;
  const SimulateResult loose = Simulate(*FindScene("chain"), {}, 1, sim);
  sim.v_step_tol = 1e-6;
  const SimulateResult tight = Simulate(*FindScene("chain"), {}, 1, sim);
  for (const StepStats& s : loose.steps) EXPECT_LT(s.iterations, sim.iters) << "step " << s.step;
  EXPECT_LT(SumOfIterations(loose), SumOfIterations(tight));
}

TEST(SimulateWarm, ABadVelocityStepIsRefusedByName) {
  SimulateOptions sim = WarmChainSim();
  sim.v_step_tol = -1;
  testing::ExpectError([&] { Simulate(*FindScene("chain"), {}, 1, sim); },
                       {"velocity step tolerance = -1: must be in [0, 1)"});
}

}  // namespace
}  // namespace ncp
