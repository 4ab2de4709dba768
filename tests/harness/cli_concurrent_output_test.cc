// Two runs on one results file, and a part file damaged from outside: every job ends up in the
// file exactly once, and nothing blocks a rerun.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

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
