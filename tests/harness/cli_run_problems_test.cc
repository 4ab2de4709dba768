// `run --problems`: only the named problems of the inputs run; a name that matches none is
// refused with one line naming it, before the results file is touched.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/results_store.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/scenarios/random/manufactured.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

TEST(CliRunProblems, RunsOnlyTheNamedProblems) {
  const fs::path dir = testing::FreshDir("run_problems");
  for (const char* file : {"a", "b"}) {
    std::vector<ContactProblem> problems;
    for (int i = 0; i < 3; ++i) {
      ManufacturedOptions o;
      o.seed = 7 + i;
      o.num_contacts = 20, o.num_bodies = 25;
      problems.push_back(MakeManufacturedProblem(o, std::string(file) + std::to_string(i)));
    }
    WriteDataset((dir / (std::string(file) + ".h5")).string(), problems);
  }
  const std::string out = (dir / "res.h5").string();
  const auto r = testing::RunCli("run " + (dir / "a.h5").string() + " " + (dir / "b.h5").string() +
                                     " --problems a2,b0 -s pgs,pj --iters 5 -q -o " + out,
                                 dir);
  ASSERT_EQ(r.code, 0) << r.err;
  std::multiset<std::string> ran;
  for (const RunRecord& row : ReadResults(out)) ran.insert(row.problem);
  EXPECT_EQ(ran, (std::multiset<std::string>{"a2", "a2", "b0", "b0"}));

  const std::string other = (dir / "none.h5").string();
  const auto bad = testing::RunCli(
      "run " + (dir / "a.h5").string() + " --problems a1,nope -s pgs -q -o " + other, dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--problems: 'nope' is no problem of the inputs (their 3 problems: a0, "
                         "a1, a2)"),
            std::string::npos)
      << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_FALSE(fs::exists(other));
}

}  // namespace
}  // namespace ncp
