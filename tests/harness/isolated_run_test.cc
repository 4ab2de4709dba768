// Isolated peers (SolverEntry::isolated): a solver that ends its own process becomes a `failed`
// row naming what ended it, and the run finishes with every other row.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "harness/results_store.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

TEST(IsolatedRun, PeerThatEndsItsProcessIsAFailedRowAndTheRunGoesOn) {
  const fs::path dir = testing::FreshDir("isolated_run");
  const std::string data = (dir / "d.h5").string(), out = (dir / "r.h5").string();
  ASSERT_EQ(testing::RunCli("generate random -n 2 --seed 4 -p contacts=6,bodies=10 -o " + data, dir)
                .code,
            0);
  const auto r = testing::RunCli("run " + data + " --plugin " + NCP_TEST_ENDING_PEER +
                                     " -s test-exiting-peer,pgs,test-crashing-peer --iters 20 -q"
                                     " -o " + out,
                                 dir);
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, int> failed, ran;
  for (const RunRecord& row : ReadResults(out)) {
    if (row.solver == "pgs") {
      EXPECT_EQ(row.status, Outcome::kMaxIterations);
      ++ran[row.solver];
      continue;
    }
    EXPECT_EQ(row.status, Outcome::kFailed) << row.solver;
    if (row.solver == "test-exiting-peer")
      EXPECT_NE(row.message.find("ended its process (exit 7"), std::string::npos) << row.message;
    else
      EXPECT_NE(row.message.find("ended its process"), std::string::npos) << row.message;
    EXPECT_EQ(row.problem.rfind("random-", 0), 0u);
    ++failed[row.solver];
  }
  EXPECT_EQ(ran["pgs"], 2);
  EXPECT_EQ(failed["test-exiting-peer"], 2);
  EXPECT_EQ(failed["test-crashing-peer"], 2);
}

}  // namespace
}  // namespace ncp
