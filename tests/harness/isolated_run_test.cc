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
  ASSERT_EQ(
      testing::RunCli("generate random -n 2 --seed 4 -p contacts=6,bodies=10 -o " + data, dir).code,
      0);
  const auto r = testing::RunCli("run " + data + " --plugin " + NCP_TEST_ENDING_PEER +
                                     " -s test-exiting-peer,pgs,test-crashing-peer --iters 20 -q"
                                     " -o " +
                                     out,
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

#if defined(NCP_HAVE_SICONOS)
// A host that ignores SIGCHLD (children reaped by the kernel, waitpid answers ECHILD) loses the
// jobs' exit statuses: a job that finished still gives its row, one that crashed a failed row
// that says so.
TEST(IsolatedRun, JobsReapedByTheKernelStillGiveTheirRows) {
  const fs::path dir = testing::FreshDir("isolated_sigchld");
  const std::string data = std::string(NCP_FCLIB_DIR) + "/Box_Stacks-i0035-31-0.hdf5";
  const std::string out = (dir / "r.h5").string();
  // SIG_IGN survives exec: bash ignores SIGCHLD and becomes ncpbench (dash would reset it).
  const std::string cmd = std::string("bash -c \"trap '' CHLD; exec ") + NCP_CLI + " run " + data +
                          " --plugin " + NCP_TEST_ENDING_PEER +
                          " -s siconos:nsgs,test-crashing-peer --iters 20 -q -o " + out + "\" 2>" +
                          (dir / "err.txt").string();
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << testing::Slurp((dir / "err.txt").string());
  std::map<std::string, int> rows;
  for (const RunRecord& row : ReadResults(out)) {
    ++rows[row.solver];
    if (row.solver == "siconos:nsgs") {
      EXPECT_NE(row.status, Outcome::kFailed) << row.message;
      EXPECT_EQ(row.iterations, 20);
    } else {
      EXPECT_EQ(row.status, Outcome::kFailed);
      EXPECT_NE(row.message.find("exit status lost"), std::string::npos) << row.message;
    }
  }
  EXPECT_EQ(rows["siconos:nsgs"], 1);
  EXPECT_EQ(rows["test-crashing-peer"], 1);
}
#endif

}  // namespace
}  // namespace ncp
