// Runs plots/roofline.py on a results file whose work counts, times and peaks are set here, as a
// user would: the fraction of the bound it prints is the report's (docs/roofline.md).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/machine_peaks.h"
#include "harness/results_store.h"
#include "tests/cli_support.h"
#include "tests/plots/plot_support.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

using testing::ExitCode;
using testing::kPython;

RunRecord CountedRecord(const std::string& solver, double bytes, double flops, double time_s,
                        int threads) {
  RunRecord r;
  r.dataset = "d";
  r.problem = "p";
  r.solver = solver;
  r.job_key = "d|p|" + solver;
  r.status = Outcome::kMaxIterations;
  r.iterations = 10;
  r.solve_time_s = time_s;
  r.threads_used = threads;
  r.work_bytes = bytes, r.work_flops = flops;
  return r;
}

class RooflinePlot : public testing::TempDirTest {
 protected:
  RooflinePlot() : TempDirTest("ncp_roofline_plot") {}
  void SetUp() override {
    if (ExitCode(fmt::format("{} -c 'import h5py, matplotlib' >/dev/null 2>&1", kPython)) != 0)
      GTEST_SKIP() << kPython << " cannot import h5py and matplotlib";
    TempDirTest::SetUp();
  }
  int Plot(const std::string& results, const std::string& png) {
    return ExitCode(fmt::format("{} {}/plots/roofline.py {} -o {} >{} 2>{}", kPython,
                                NCP_SOURCE_DIR, results, png, Path("out.txt"), Path("err.txt")));
  }
};

TEST_F(RooflinePlot, PrintsTheFractionOfTheBoundPerThreadsAndWritesAPng) {
  const std::map<std::string, std::string> peaks = {
      {kRunAttrPeakBandwidth1, "10"}, {kRunAttrPeakBandwidth, "16"}, {kRunAttrPeakFlops1, "50"},
      {kRunAttrPeakFlops, "90"},      {kRunAttrPeakThreads, "2"},    {kRunAttrPeaksMeasured, "x"}};
  RunRecord peer = CountedRecord("siconos:nsgs", NAN, NAN, 0.1, 1);  // not counted: left out
  // Bytes and no flops (a plug-in's count): no intensity on the log axis, left out (its 0 made
  // the axis start at log10(0)).
  RunRecord bytes_only = CountedRecord("my-solver", 1e9, 0.0, 0.1, 1);
  WriteResults(Path("r.h5"),
               {CountedRecord("pj", 1e9, 1e8, 0.2, 1), CountedRecord("pgs", 1.6e9, 1e8, 0.4, 2),
                peer, bytes_only},
               peaks);
  const std::string png = Path("roof.png");
  ASSERT_EQ(Plot(Path("r.h5"), png), 0) << testing::Slurp(Path("err.txt"));
  const std::string out = testing::Slurp(Path("out.txt"));
  // 1 GB in 0.2 s against 10 GB/s: half; 1.6 GB in 0.4 s on 2 threads against 16 GB/s: a quarter.
  EXPECT_NE(out.find("pj on d (1 thread): 0.1 flop/B, 5 GB/s, 0.5 GFLOP/s, 50% of bound"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("pgs on d (2 threads): 0.0625 flop/B, 4 GB/s, 0.25 GFLOP/s, 25% of bound"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("siconos"), std::string::npos) << out;
  EXPECT_EQ(out.find("my-solver"), std::string::npos) << out;
  std::ifstream in(png, std::ios::binary);
  std::string magic(8, '\0');
  in.read(magic.data(), magic.size());
  EXPECT_EQ(magic, "\x89PNG\r\n\x1a\n");
}

// Two settings of one solver were summed into one point, which the report shows apart.
TEST_F(RooflinePlot, SettingsVariantsArePointsOfTheirOwnLabelledAsTheReportLabelsThem) {
  const std::map<std::string, std::string> peaks = {
      {kRunAttrPeakBandwidth1, "10"}, {kRunAttrPeakBandwidth, "16"}, {kRunAttrPeakFlops1, "50"},
      {kRunAttrPeakFlops, "90"},      {kRunAttrPeakThreads, "2"},    {kRunAttrPeaksMeasured, "x"}};
  RunRecord a = CountedRecord("pgs", 1e9, 1e8, 0.2, 1), b = CountedRecord("pgs", 1e9, 1e8, 0.4, 1);
  a.settings = "nncg=0", b.settings = "nncg=1";
  b.job_key += "|nncg=1";
  WriteResults(Path("v.h5"), {a, b}, peaks);
  ASSERT_EQ(Plot(Path("v.h5"), Path("v.png")), 0) << testing::Slurp(Path("err.txt"));
  const std::string out = testing::Slurp(Path("out.txt"));
  EXPECT_NE(out.find("pgs (nncg=0) on d (1 thread): 0.1 flop/B, 5 GB/s, 0.5 GFLOP/s, 50% of bound"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("pgs (nncg=1) on d (1 thread): 0.1 flop/B, 2.5 GB/s, 0.25 GFLOP/s, 25% of "
                     "bound"),
            std::string::npos)
      << out;
}

TEST_F(RooflinePlot, AFileWithoutPeaksOrCountsIsAOneLineErrorAndNoImage) {
  WriteResults(Path("nopeaks.h5"), {CountedRecord("pj", 1e9, 1e8, 0.2, 1)}, {});
  const std::string png = Path("bad.png");
  EXPECT_EQ(Plot(Path("nopeaks.h5"), png), 2);
  EXPECT_NE(testing::Slurp(Path("err.txt")).find("peak_bandwidth_gbs_1thread"), std::string::npos);
  EXPECT_EQ(Plot(Path("missing.h5"), png), 2);
  EXPECT_FALSE(fs::exists(png));
}

}  // namespace
}  // namespace ncp
