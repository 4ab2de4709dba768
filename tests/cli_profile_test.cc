// `ncpbench profile` end to end: runs solvers on fclib samples, writes the Markdown report with a
// verdict per dataset and the CSV; bad input stops it with one line and exit code 2.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_support.h"

namespace ncp {
namespace {

const std::string kSamples = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5 " + NCP_FCLIB_DIR +
                             "/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5";

TEST(CliProfile, RunsAndReportsEveryDataset) {
  const auto dir = testing::FreshDir("cli_profile");
#ifdef NCP_HAVE_SICONOS
  const std::string solvers = "pgs,apgd,siconos:nsgs";
#else
  const std::string solvers = "pgs,apgd";
#endif
  const std::string out = (dir / "p.h5").string(), md = (dir / "p.md").string();
  const testing::CliResult r = testing::RunCli(
      "profile " + kSamples + " -q -s " + solvers + " --iters 3000 -o " + out + " --report " + md, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string report = testing::Slurp(md);
  for (const char* dataset : {"**CubeH8**: fastest", "**LMGC_100_PR_PerioBox-i00361-60-03000**: fastest"})
    EXPECT_NE(report.find(dataset), std::string::npos) << report;
  EXPECT_NE(report.find("| pgs | "), std::string::npos) << report;
#ifdef NCP_HAVE_SICONOS
  EXPECT_NE(report.find("| siconos:nsgs (peer) | "), std::string::npos) << report;
#endif
  const std::string csv = testing::Slurp(out + ".csv");
  EXPECT_EQ(csv.rfind("dataset,problem,solver,peer,time_to_tol_s,ratio\n", 0), 0u);
  // --from reads the same results without running anything.
  const testing::CliResult again = testing::RunCli("profile --from " + out, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("Fastest solver per dataset"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(CliProfile, BadInputIsOneLineAndExitCode2) {
  const auto dir = testing::FreshDir("cli_profile_bad");
  const testing::CliResult tol = testing::RunCli("profile " + kSamples + " --tol 0", dir);
  EXPECT_EQ(tol.code, 2);
  EXPECT_EQ(tol.err, "ncpbench: error: --tol = 0: must be > 0\n");
  const testing::CliResult none = testing::RunCli("profile", dir);
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("datasets: none given"), std::string::npos) << none.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncp
