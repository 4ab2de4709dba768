// The CI regression check: baselines of the shipped fclib samples and of a small manufactured
// dataset, a second run of the same code, and `compare` finding no regression on any of them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "harness/results_store.h"
#include "problems/io/dataset_hdf5.h"
#include "tests/cli_support.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

constexpr char kSolvers[] = "pgs,apgd,admm-full";

TEST(CliRegression, BaselineThenCompareOnShippedDatasetsPasses) {
  const fs::path dir = testing::FreshDir("regression");
  std::vector<ContactProblem> problems;
  for (int i = 0; i < 3; ++i) {
    auto o = testing::AcceptanceOptions(70 + i);
    o.num_contacts = 20, o.num_bodies = 24;
    problems.push_back(MakeManufacturedProblem(o, "m" + std::to_string(i)));
  }
  const std::string manufactured = (dir / "manufactured.h5").string();
  WriteDataset(manufactured, problems);
  std::vector<std::string> stems = {"manufactured"};
  std::string inputs = manufactured;
  for (const auto& e : fs::directory_iterator(NCP_FCLIB_DIR)) {
    if (e.path().extension() != ".hdf5") continue;
    inputs += " " + e.path().string();
    stems.push_back(e.path().stem().string());
  }
  ASSERT_GE(stems.size(), 2u) << "no fclib samples in " << NCP_FCLIB_DIR;

  for (const char* side : {"base", "new"}) {
    const auto r = testing::RunCli(fmt::format("baseline {} -s {} --iters 30 -q --out-dir {}",
                                               inputs, kSolvers, (dir / side).string()),
                                   dir);
    ASSERT_EQ(r.code, 0) << r.err;
  }
  for (const std::string& stem : stems) {
    const std::string base = (dir / "base" / (stem + ".h5")).string();
    const std::string now = (dir / "new" / (stem + ".h5")).string();
    ASSERT_TRUE(fs::exists(base)) << base;
    EXPECT_FALSE(fs::exists(base + ".running.h5")) << "the side file was left behind";
    const auto rows = ReadResults(base);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.size() % 3, 0u) << "one row per problem and solver";
    EXPECT_EQ(ReadRunAttrs(base).at("baseline_iters"), "30");
    const auto r = testing::RunCli("compare " + base + " " + now, dir);
    EXPECT_EQ(r.code, 0) << stem << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find(": OK"), std::string::npos) << r.out;
  }
}

// The committed baselines (results/baselines/) against the current solvers, with the solvers and
// budget each baseline records. Fails when a change made a solver less accurate on the fclib
// samples; after an intended change, regenerate them (README, "Regression tracking").
TEST(CliRegression, ShippedBaselinesHold) {
  const fs::path dir = testing::FreshDir("regression_shipped");
  const fs::path baselines = fs::path(NCP_SOURCE_DIR) / "results" / "baselines";
  int checked = 0;
  for (const auto& e : fs::directory_iterator(NCP_FCLIB_DIR)) {
    if (e.path().extension() != ".hdf5") continue;
    const fs::path base = baselines / (e.path().stem().string() + ".h5");
    ASSERT_TRUE(fs::exists(base)) << "no committed baseline for " << e.path();
    const auto attrs = ReadRunAttrs(base.string());
    const std::string now = (dir / base.filename()).string();
    const auto run =
        testing::RunCli(fmt::format("baseline {} -s {} --iters {} -q -o {}", e.path().string(),
                                    attrs.at("baseline_solvers"), attrs.at("baseline_iters"), now),
                        dir);
    ASSERT_EQ(run.code, 0) << run.err;
    const auto r = testing::RunCli("compare " + base.string() + " " + now, dir);
    EXPECT_EQ(r.code, 0) << base << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.find("Unmatched jobs"), std::string::npos) << r.out;
    ++checked;
  }
  EXPECT_GE(checked, 2);
}

TEST(CliRegression, BaselineReplacesAnOlderBaseline) {
  const fs::path dir = testing::FreshDir("regression_replace");
  const std::string data = (dir / "d.h5").string(), out = (dir / "d-base.h5").string();
  WriteDataset(data, {MakeManufacturedProblem(testing::AcceptanceOptions(3), "p0")});
  ASSERT_EQ(testing::RunCli("baseline " + data + " -s pgs --iters 5 -q -o " + out, dir).code, 0);
  // An existing baseline is a reference: replacing it takes --force, and nothing runs without.
  const auto refused = testing::RunCli("baseline " + data + " -s pgs --iters 9 -q -o " + out, dir);
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("exists; pass --force to replace it"), std::string::npos)
      << refused.err;
  EXPECT_EQ(ReadResults(out).at(0).iterations, 5);
  ASSERT_EQ(
      testing::RunCli("baseline " + data + " -s pgs --iters 9 -q --force -o " + out, dir).code, 0);
  const auto rows = ReadResults(out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].iterations, 9);
}

TEST(CliRegression, BaselineRejectsBadInputBeforeWriting) {
  const fs::path dir = testing::FreshDir("regression_bad");
  const std::string data = (dir / "d.h5").string();
  WriteDataset(data, {MakeManufacturedProblem(testing::AcceptanceOptions(3), "p0")});
  const std::string out = (dir / "x.h5").string();
  for (const std::string& args :
       {"baseline " + data + " " + data + " -o " + out, "baseline " + data + " --iters 0 -o " + out,
        "baseline " + data + " -s nosuch -o " + out,
        "baseline " + (dir / "missing.h5").string() + " -o " + out}) {
    const auto r = testing::RunCli(args, dir);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out)) << args;
  }
}

}  // namespace
}  // namespace ncp
