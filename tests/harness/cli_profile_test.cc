// `ncpbench profile` end to end: runs solvers on fclib samples and on a folder (skipping a corrupt
// file on request), writes the Markdown report with a verdict per dataset, the virtual best,
// ours vs Siconos and descriptor bins, and the CSV; bad input stops it with one line and exit
// code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/results_store.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

const std::string kProfileSamples = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5 " + NCP_FCLIB_DIR +
                                    "/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5";

// Ours and, when built, one Siconos peer.
#ifdef NCP_HAVE_SICONOS
const std::string kProfiled = "pgs,apgd,siconos:nsgs";
#else
const std::string kProfiled = "pgs,apgd";
#endif

TEST(CliProfile, RunsAndReportsEveryDataset) {
  const auto dir = testing::FreshDir("cli_profile");
  const std::string out = (dir / "p.h5").string(), md = (dir / "p.md").string();
  const testing::CliResult r =
      testing::RunCli("profile " + kProfileSamples + " -q -s " + kProfiled + " --iters 3000 -o " +
                          out + " --report " + md,
                      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string report = testing::Slurp(md);
  for (const char* dataset :
       {"**CubeH8**: fastest", "**LMGC_100_PR_PerioBox-i00361-60-03000**: fastest"})
    EXPECT_NE(report.find(dataset), std::string::npos) << report;
  EXPECT_NE(report.find("| pgs | "), std::string::npos) << report;
#ifdef NCP_HAVE_SICONOS
  EXPECT_NE(report.find("| siconos:nsgs (peer) | "), std::string::npos) << report;
#endif
  const std::string csv = testing::Slurp(out + ".csv");
  EXPECT_EQ(
      csv.rfind("dataset,problem,solver,peer,time_to_tol_s,ratio,time_for_mean_s,metric,tol\n", 0),
      0u);
  // --from reads the same results without running anything.
  const testing::CliResult again = testing::RunCli("profile --from " + out, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("Fastest solver per dataset"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A folder with two copies of a sample and one corrupt file: without --skip-invalid the run
// stops naming the file; with it the copies are profiled to two natmap_rel tolerances, the report
// lists the file left out, and the rows carry the problem's descriptors.
TEST(CliProfile, FolderWithCorruptFileAndSeveralTolerances) {
  const auto dir = testing::FreshDir("cli_profile_folder");
  const auto data = dir / "fclib";
  std::filesystem::create_directories(data);
  for (const char* copy : {"a.hdf5", "b.hdf5"})
    std::filesystem::copy_file(std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5", data / copy);
  std::ofstream(data / "corrupt.hdf5") << "not an HDF5 file";
  const std::string out = (dir / "p.h5").string(), md = (dir / "p.md").string();
  const std::string args =
      "profile " + data.string() + " -s " + kProfiled +
      " --tol-metric natmap_rel --tols 1e-8,1e-4 --iters 3000 --time-ms 5000 -o " + out +
      " --report " + md;
  const testing::CliResult strict = testing::RunCli(args, dir);
  EXPECT_EQ(strict.code, 2);
  EXPECT_NE(strict.err.find("corrupt.hdf5"), std::string::npos) << strict.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  const testing::CliResult r = testing::RunCli(args + " --skip-invalid", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("skipped: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("natmap_rel="), std::string::npos) << r.err;  // progress lines
  const std::string report = testing::Slurp(md);
  EXPECT_NE(report.find("## Inputs left out (1, --skip-invalid)"), std::string::npos) << report;
  EXPECT_NE(report.find("corrupt.hdf5"), std::string::npos) << report;
  EXPECT_NE(report.find("2 problems from 2 files"), std::string::npos) << report;
  for (const char* s :
       {"## Time to natmap_rel ≤ 1e-08", "## Time to natmap_rel ≤ 0.0001",
        "**a**: fastest to natmap_rel ≤ 1e-08", "**b**: fastest", "| *virtual best* | 2/2 |",
        "Success by problem descriptor", "| rank ratio | = 1 (full rank) | 2 | 100% |"})
    EXPECT_NE(report.find(s), std::string::npos) << s << "\n" << report;
#ifdef NCP_HAVE_SICONOS
  EXPECT_NE(
      report.find(
          "Over the 2 problems both can take: Siconos' best solves **0** that none of ours solves"),
      std::string::npos)
      << report;
#endif
  const std::string csv = testing::Slurp(out + ".csv");
  EXPECT_NE(csv.find(",natmap_rel,1e-08\n"), std::string::npos);
  EXPECT_NE(csv.find(",natmap_rel,0.0001\n"), std::string::npos);
  // Every row carries the descriptors of CubeH8 (1 contact, 162 dofs, W 3 × 3 of full rank).
  const std::vector<RunRecord> rows = ReadResults(out);
  ASSERT_FALSE(rows.empty());
  for (const RunRecord& row : rows) {
    EXPECT_DOUBLE_EQ(row.descriptors.rank_ratio, 1.0);
    EXPECT_NEAR(row.descriptors.contact_density, 3.0 / 162, 1e-15);
    EXPECT_DOUBLE_EQ(row.descriptors.mu_max, 0.3);
  }
  // Profiling the file again lists the skipped input from its attribute.
  const testing::CliResult again =
      testing::RunCli("profile --from " + out + " --tol-metric natmap_rel --tol 1e-4", dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("corrupt.hdf5"), std::string::npos) << again.out;
  std::filesystem::remove_all(dir);
}

// Runs stopped at --tol 1e-4 (res004) end their traces there: profiling them at a tighter
// res004 would read "0 solved" for every solver and is refused; on another metric the two cannot
// be compared, and the report states where the runs stopped.
TEST(CliProfile, FromRunsStoppedAtATolerance) {
  const auto dir = testing::FreshDir("cli_profile_stopped");
  const std::string out = (dir / "r.h5").string();
  ASSERT_EQ(testing::RunCli("run " + std::string(NCP_FCLIB_DIR) +
                                "/CubeH8.hdf5 -s pgs --tol 1e-4 --iters 300 --trace 1 -q -o " + out,
                            dir)
                .code,
            0);
  const testing::CliResult tighter = testing::RunCli("profile --from " + out + " --tol 1e-6", dir);
  EXPECT_EQ(tighter.code, 2);
  EXPECT_NE(tighter.err.find("--tol 1e-06: the runs of " + out +
                             " stopped at --tol 0.0001 on "
                             "res004 (their budget)"),
            std::string::npos)
      << tighter.err;
  const testing::CliResult other =
      testing::RunCli("profile --from " + out + " --tol-metric natmap_rel --tol 1e-6", dir);
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_NE(other.out.find("Runs stopped at res004 <= 0.0001 (their budget): one that stopped "
                           "there before natmap_rel reached a tolerance counts as not reaching "
                           "it."),
            std::string::npos)
      << other.out;
  std::filesystem::remove_all(dir);
}

TEST(CliProfile, BadInputIsOneLineAndExitCode2) {
  const auto dir = testing::FreshDir("cli_profile_bad");
  const testing::CliResult tol = testing::RunCli("profile " + kProfileSamples + " --tol 0", dir);
  EXPECT_EQ(tol.code, 2);
  EXPECT_EQ(tol.err, "ncpbench: error: --tol = 0: must be > 0\n");
  const testing::CliResult tols =
      testing::RunCli("profile " + kProfileSamples + " --tols 1e-8,x", dir);
  EXPECT_EQ(tols.code, 2);
  EXPECT_EQ(tols.err, "ncpbench: error: --tols = 1e-8,x: 'x' must be a number > 0\n");
  const testing::CliResult both =
      testing::RunCli("profile " + kProfileSamples + " --tol 1e-6 --tols 1e-8", dir);
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(both.err, "ncpbench: error: --tols = 1e-8: give --tol or --tols, not both\n");
  const testing::CliResult metric =
      testing::RunCli("profile " + kProfileSamples + " --tol-metric bogus", dir);
  EXPECT_EQ(metric.code, 2);
  EXPECT_EQ(metric.err.rfind("ncpbench: error: --tol-metric = bogus: ", 0), 0u) << metric.err;
  const testing::CliResult none = testing::RunCli("profile", dir);
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("datasets: none given"), std::string::npos) << none.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncp
