// Two runs on one results file, and a part file damaged from outside: every job ends up in the
// file exactly once, and nothing blocks a rerun.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "harness/output_lock.h"
#include "harness/results_store.h"
#include "problems/io/dataset_hdf5.h"
#include "tests/cli_support.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

std::map<std::string, int> KeyCounts(const std::string& results) {
  std::map<std::string, int> counts;
  for (const RunRecord& r : ReadResults(results)) ++counts[r.job_key];
  return counts;
}

TEST(CliConcurrentOutput, TwoRunsOnOneOutputGiveEveryJobOnce) {
  const fs::path dir = testing::FreshDir("concurrent_output");
  const std::string data = (dir / "d.h5").string(), out = (dir / "r.h5").string();
  std::vector<ContactProblem> problems;
  for (int i = 0; i < 6; ++i)
    problems.push_back(
        MakeManufacturedProblem(testing::AcceptanceOptions(20 + i), "p" + std::to_string(i)));
  WriteDataset(data, problems);
  const std::string run =
      std::string(NCP_CLI) + " run " + data + " -s pgs,apgd,pj --iters 300 -q -o " + out;
  const std::string both = "(" + run + " > " + (dir / "a.txt").string() + " 2>&1; echo $? > " +
                           (dir / "a.rc").string() + ") & (" + run + " > " +
                           (dir / "b.txt").string() + " 2>&1; echo $? > " +
                           (dir / "b.rc").string() + ") & wait";
  ASSERT_EQ(std::system(("bash -c '" + both + "'").c_str()), 0);
  // The second to start either finds the output free (the first has ended) or refuses in one
  // line naming the other run; neither fails otherwise.
  int ran = 0;
  for (const char* name : {"a", "b"}) {
    const std::string code = testing::Slurp((dir / (std::string(name) + ".rc")).string());
    const std::string err = testing::Slurp((dir / (std::string(name) + ".txt")).string());
    if (code == "0\n") {
      ++ran;
      continue;
    }
    EXPECT_EQ(code, "2\n") << err;
    EXPECT_NE(err.find("in use by another ncpbench run (pid "), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << err;
  }
  EXPECT_GE(ran, 1);
  // A rerun completes whatever a race left in parts, then every job is there once.
  ASSERT_EQ(testing::RunCli("run " + data + " -s pgs,apgd,pj --iters 300 -q -o " + out, dir).code,
            0);
  const auto counts = KeyCounts(out);
  EXPECT_EQ(counts.size(), 18u);
  for (const auto& [key, n] : counts) EXPECT_EQ(n, 1) << key;
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(CliConcurrentOutput, BrokenPartIsRedoneNotBlocking) {
  const fs::path dir = testing::FreshDir("broken_part");
  const std::string data = (dir / "d.h5").string(), out = (dir / "r.h5").string();
  WriteDataset(data, {MakeManufacturedProblem(testing::AcceptanceOptions(3), "p0"),
                      MakeManufacturedProblem(testing::AcceptanceOptions(4), "p1")});
  const std::string parts = out + ".parts";
  fs::create_directories(parts);
  std::ofstream(parts + "/0000000000000000.h5") << std::string(195, 'x');  // not HDF5
  const auto r = testing::RunCli("run " + data + " -s pgs --iters 50 -o " + out, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("removed, its job runs again (unreadable"), std::string::npos) << r.err;
  EXPECT_EQ(KeyCounts(out).size(), 2u);
}

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// generate, convert and simulate --record wrote over a file a run was writing (and the run
// then over theirs): with the output's lock held elsewhere, each refuses naming the holder.
TEST(CliConcurrentOutput, WholeFileWritersRespectARunsLock) {
  const fs::path dir = testing::FreshDir("whole_writers_lock");
  const std::string data = (dir / "d.h5").string(), out = (dir / "k.h5").string();
  WriteDataset(data, {testing::OnlyType(ConstraintType::kContact)});
  const OutputLock held(out);  // as a run writing k.h5 holds it
  for (const std::string& command :
       {"generate random -n 1 -q -o " + out, "convert " + data + " " + out,
        "simulate box_push --steps 4 --every 2 -q --record " + out}) {
    const testing::CliResult r = testing::RunCli(command, dir);
    EXPECT_EQ(r.code, 2) << command << "\n" << r.err;
    EXPECT_NE(r.err.find(std::to_string(getpid())), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << command;
  }
}

// A sweep interrupted with other parameters left its datasets and finished jobs: rerun with
// others, it regenerated the datasets and merged the old rows of problems no longer there.
TEST(CliConcurrentOutput, ASweepDoesNotMergeAnInterruptedSweepOfOtherProblems) {
  const fs::path dir = testing::FreshDir("sweep_other_parts");
  const std::string out = (dir / "s.h5").string();
  const std::string sweep = "sweep random --param contacts --values 6 -n 2 -s pgs --iters 5 -q ";
  ASSERT_EQ(testing::RunCli(sweep + "-p bodies=8 -o " + out, dir).code, 0);
  fs::remove(out);  // as if interrupted: the datasets and a finished job's part are left
  fs::create_directories(out + ".parts");
  std::ofstream(out + ".parts/0000000000000000.h5") << "a part";
  const testing::CliResult r = testing::RunCli(sweep + "-p bodies=9 -o " + out, dir);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("generated by a sweep with params 'bodies=8,contacts=6'"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ncp
