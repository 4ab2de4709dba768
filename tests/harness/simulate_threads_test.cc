// A simulation's step solves run on SimulateOptions::threads (1 by default), whatever the count
// in force around it, which it restores: the frames are the same on every machine, and the
// environment's OMP_NUM_THREADS does not reach them (a parallel reduction's rounding would).
#include <gtest/gtest.h>
#include <omp.h>

#include <vector>

#include "harness/simulate.h"
#include "harness/thread_limits.h"
#include "problems/scenarios/rigid/scene.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

// The OpenMP thread count each step's callback saw, with `threads` asked and 2 in force around.
std::vector<int> ThreadsSeen(int threads) {
  const SolverThreadScope around(2);
  SimulateOptions sim = SteppingOptions("pgs", 5, 3);
  sim.threads = threads;
  std::vector<int> seen;
  sim.on_step = [&](const ContactProblem&, const WarmStart&) {
    seen.push_back(omp_get_max_threads());
  };
  Simulate(*FindScene("box_push"), {}, 1, sim);
  EXPECT_EQ(omp_get_max_threads(), 2) << "the count in force before is restored";
  return seen;
}

TEST(SimulateThreads, StepsRunOnTheirOwnCountAndRestoreTheOneAround) {
  EXPECT_EQ(ThreadsSeen(1), std::vector<int>(3, 1));
  EXPECT_EQ(ThreadsSeen(0), std::vector<int>(3, 2));  // 0: the count in force
}

TEST(SimulateThreads, ABadCountIsRefusedByName) {
  SimulateOptions sim;
  sim.threads = -1;
  testing::ExpectError([&] { Simulate(*FindScene("box_push"), {}, 1, sim); },
                       {"--threads = -1: must be in [0, 1024]"});
}

}  // namespace
}  // namespace ncp
