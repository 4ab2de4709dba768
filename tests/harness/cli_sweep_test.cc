// `ncpbench sweep`: one dataset per size, rows with sizes and times, resuming, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "harness/results_store.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

TEST(CliSweep, RandomContactsSweepRecordsSizesAndResumes) {
  const fs::path dir = testing::FreshDir("sweep_random");
  const std::string out = (dir / "sweep.h5").string();
  const std::string args =
      "sweep random --param contacts --values 8,16,32 -p bodies=48 -n 2 "
      "-s pgs,admm-full --iters 5 -q -o " +
      out;
  const auto r = testing::RunCli(args, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("sweep: 12 jobs run now"), std::string::npos) << r.out;
  const auto rows = ReadResults(out);
  ASSERT_EQ(rows.size(), 12u);  // 3 sizes × 2 problems × 2 solvers
  std::map<std::string, std::set<int>> contacts;
  for (const RunRecord& row : rows) {
    contacts[row.dataset].insert(row.num_contacts);
    EXPECT_GT(row.num_dofs, 0);
    EXPECT_EQ(row.num_bodies, 48) << "manufactured problems carry a structure layer";
    EXPECT_GE(row.total_time_s, 0.0);
  }
  EXPECT_EQ(contacts["random-contacts8"], std::set<int>{8});
  EXPECT_EQ(contacts["random-contacts16"], std::set<int>{16});
  EXPECT_EQ(contacts["random-contacts32"], std::set<int>{32});
  const auto attrs = ReadRunAttrs(out);
  EXPECT_EQ(attrs.at("sweep_param"), "contacts");
  EXPECT_EQ(attrs.at("sweep_value:random-contacts16"), "16");
  EXPECT_TRUE(fs::exists(dir / "sweep.datasets" / "random-contacts32.h5"));

  // Again: the datasets are reused, so every job is found done.
  const auto again = testing::RunCli(args, dir);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("sweep: 0 jobs run now"), std::string::npos) << again.out;
  EXPECT_EQ(ReadResults(out).size(), 12u);

  // The sweep over `values`, into the same output: how many jobs it ran now.
  const auto sweep_values = [&](const std::string& values, const char* ran) {
    const auto r = testing::RunCli("sweep random --param contacts --values " + values +
                                       " -p bodies=48 -n 2 -s pgs,admm-full --iters 5 -q -o " + out,
                                   dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(ran), std::string::npos) << r.out;
  };
  // One more size: only its jobs run.
  sweep_values("8,16,32,40", "sweep: 4 jobs run now");
  // The same numbers written otherwise name the same datasets ("+8" was "random-contacts+8").
  sweep_values("+8,016,32.0,4e1", "sweep: 0 jobs run now");
  EXPECT_EQ(ReadResults(out).size(), 16u);
}

TEST(CliSweep, SceneSweepGrowsWithTheSizeParameter) {
  const fs::path dir = testing::FreshDir("sweep_scene");
  const std::string out = (dir / "cubes.h5").string();
  const auto r = testing::RunCli(
      "sweep sliding_cubes --param cubes --values 2,4 -n 1 -s pgs --iters 5 -q -o " + out, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = ReadResults(out);
  ASSERT_EQ(rows.size(), 2u);
  std::map<std::string, int> dofs;
  for (const RunRecord& row : rows) dofs[row.dataset] = row.num_dofs;
  EXPECT_EQ(dofs.at("sliding_cubes-cubes2"), 12);  // 6 dofs per free cube
  EXPECT_EQ(dofs.at("sliding_cubes-cubes4"), 24);
}

TEST(CliSweep, BadInputExitsTwoBeforeWriting) {
  const fs::path dir = testing::FreshDir("sweep_bad");
  const std::string out = (dir / "s.h5").string();
  const std::pair<std::string, std::string> cases[] = {
      {"sweep sliding_cubes --param cubes --values 2,0", "sliding_cubes.cubes = 0"},
      {"sweep sliding_cubes --param nosuch --values 2", "sliding_cubes.nosuch"},
      {"sweep random --param contacts --values 8,x", "random.contacts = x"},
      {"sweep random --param contacts --values 8,8", "--values 8: given twice"},
      {"sweep random --param contacts --values 20,020", "--values 020: the same value as 20"},
      {"sweep random --param contacts --values 8 --seed -1", "--seed: seed -1 is negative"},
      {"sweep nosuch --param n --values 1", "scenario 'nosuch'"},
      {"sweep random --param contacts --values 8 -p contacts=4", "--params contacts=4"},
      {"sweep random --param contacts --values 8 -s nosuch", "nosuch"},
  };
  for (const auto& [args, needle] : cases) {
    const auto r = testing::RunCli(args + " -q -o " + out, dir);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << args;
    EXPECT_FALSE(fs::exists(dir / "s.datasets")) << args;
  }
}

}  // namespace
}  // namespace ncp
