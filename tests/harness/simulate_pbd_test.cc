// simulate's PBD path: a scene of free bodies stepped by XpbdStepper with per-step statistics and
// the after-step observer, the same box_push trajectory as a converged solver within the slop,
// and what it cannot do refused by name (recording, FEM scenes, solver options on the CLI).
#include <gtest/gtest.h>

#include <cmath>

#include "harness/simulate.h"
#include "problems/scenarios/rigid/scene.h"
#include "tests/cli_support.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

TEST(SimulatePbd, StepsTheCableAndReportsEveryStep) {
  SimulateOptions sim = SteppingOptions("", 1, 10);
  int observed = 0;
  sim.after_step = [&](const physics::SteppedSystem& s) {
    ++observed;
    EXPECT_NEAR(s.time(), observed * s.options().dt, 1e-12);
  };
  const SimulateResult r =
      SimulatePbd(*FindScene("cable"), {{"links", "20"}}, 1, sim, {.substeps = 10});
  ASSERT_EQ(r.steps.size(), 10u);
  EXPECT_EQ(observed, 10);
  for (const StepStats& s : r.steps) {
    EXPECT_EQ(s.iterations, 10);
    EXPECT_EQ(s.status, Outcome::kMaxIterations);
    EXPECT_TRUE(std::isnan(s.res004));
    EXPECT_GT(s.contacts, 0);  // the cable lies on the floor
  }
  EXPECT_EQ(r.final_poses.size(), 20u);
}

// box_push (7 N on 1 kg, μ 0.5: a = 7 − 4.905 = 2.095 m/s²): after 0.3 s PBD's box is where
// pgs's converged steps put it, within 1 mm (both Coulomb; PBD's velocity-pass form here).
TEST(SimulatePbd, PushedBoxFollowsTheSolversTrajectory) {
  SimulateOptions sim = SteppingOptions("pgs", 2000, 300);
  sim.step_tol = 1e-10;
  const SimulateResult ncp = Simulate(*FindScene("box_push"), {}, 1, sim);
  const SimulateResult pbd =
      SimulatePbd(*FindScene("box_push"), {}, 1, sim,
                  {.substeps = 20, .friction = physics::XpbdFriction::kVelocity});
  const double x = 0.5 * 2.095 * 0.3 * 0.3;
  EXPECT_NEAR(ncp.final_poses[0].translation().x() - pbd.final_poses[0].translation().x(), 0.0,
              1e-3);
  EXPECT_NEAR(pbd.final_poses[0].translation().x() - 0.0, x, 0.05 * x + 1e-3);
}

TEST(SimulatePbd, RefusesWhatItCannotDoByName) {
  SimulateOptions sim = SteppingOptions("", 1, 2);
  sim.every = 5;
  testing::ExpectError([&] { SimulatePbd(*FindScene("cable"), {}, 1, sim, {}); },
                       {"--every = 5: a PBD run forms no problems to record"});
  sim.every = 0;
  testing::ExpectError([&] { SimulatePbd(*FindScene("soft_mat"), {}, 1, sim, {}); },
                       {"scene 'soft_mat'", "FEM scene"});
  testing::ExpectError([&] { SimulatePbd(*FindScene("cable"), {}, 1, sim, {.substeps = -1}); },
                       {"pbd substeps (--pbd) = -1"});
  const auto dir = testing::FreshDir("simulate_pbd");
  for (const char* args : {"simulate cable --pbd 10 --record x.h5",
                           "simulate cable --pbd 10 "
                           "--solver pgs",
                           "simulate cable --pbd 0", "simulate cable --pbd-friction velocity"}) {
    const auto r = testing::RunCli(args, dir);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace ncp
