// The machine-limit accounting: rates and fractions of the bound computed from counts, times and
// peaks given here; the peaks' cache file and the results file attributes that carry them.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <fstream>

#include "harness/machine_peaks.h"
#include "harness/roofline.h"
#include "tests/expect_error.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

RunRecord Counted(const std::string& solver, double bytes, double flops, double time_s, int iters,
                  int threads = 1) {
  RunRecord r;
  r.dataset = "d";
  r.solver = solver;
  r.iterations = iters;
  r.solve_time_s = time_s;
  r.threads_used = threads;
  r.work_bytes = bytes, r.work_flops = flops;
  return r;
}

std::map<std::string, std::string> Peaks(double bw1, double bw, double f1, double f) {
  return {{kRunAttrPeakBandwidth1, std::to_string(bw1)},
          {kRunAttrPeakBandwidth, std::to_string(bw)},
          {kRunAttrPeakFlops1, std::to_string(f1)},
          {kRunAttrPeakFlops, std::to_string(f)},
          {kRunAttrPeakThreads, "2"},
          {kRunAttrPeaksMeasured, "today"}};
}

// 1 GB in 0.2 s on one thread against 10 GB/s: 5 GB/s achieved, half the bound.
TEST(Roofline, FractionIsTimeAtTheBoundOverMeasuredTime) {
  const Roofline r = ComputeRoofline({Counted("pj", 1e9, 1e8, 0.2, 100)}, Peaks(10, 16, 50, 90));
  ASSERT_EQ(r.rows.size(), 1u);
  const RooflineRow& g = r.rows[0];
  EXPECT_DOUBLE_EQ(g.GBs(), 5.0);
  EXPECT_DOUBLE_EQ(g.GFlops(), 0.5);
  EXPECT_DOUBLE_EQ(g.Fraction(), 0.5);
  EXPECT_TRUE(g.MemoryBound(*r.peaks));
  const std::string md = RooflineMarkdown(r);
  EXPECT_NE(md.find("| d | pj | 1 | 1 | 2e+03 | 10 | 1 | 0.1 | 5 | 0.5 | memory | 50% |"),
            std::string::npos)
      << md;
}

// Two threads are held to the every-thread peaks; a flop-heavy run to the flop rate.
TEST(Roofline, ThreadsAndIntensityChooseTheBound) {
  const Roofline r =
      ComputeRoofline({Counted("a", 1.6e9, 1e8, 0.2, 10, 2), Counted("b", 1e8, 9e9, 0.5, 10, 2)},
                      Peaks(10, 16, 50, 90));
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(r.rows[0].Fraction(), 0.5);  // 1.6 GB at 16 GB/s: 0.1 s of 0.2
  EXPECT_FALSE(r.rows[1].MemoryBound(*r.peaks));
  EXPECT_DOUBLE_EQ(r.rows[1].Fraction(), 0.2);  // 9 GFLOP at 90 GFLOP/s: 0.1 s of 0.5
}

TEST(Roofline, WithoutPeaksFractionsAreNotAssessedAndUncountedSolversNamed) {
  const Roofline r = ComputeRoofline(
      {Counted("pj", 1e9, 1e8, 0.2, 100), Counted("siconos:nsgs", NAN, NAN, 0.1, 10)}, {});
  EXPECT_FALSE(r.peaks);
  const std::string md = RooflineMarkdown(r);
  EXPECT_NE(md.find("not assessed"), std::string::npos) << md;
  EXPECT_NE(md.find("Not counted"), std::string::npos) << md;
  EXPECT_NE(md.find("siconos:nsgs"), std::string::npos) << md;
  EXPECT_TRUE(RooflineMarkdown(ComputeRoofline({}, {})).empty());
}

class PeaksCache : public testing::TempDirTest {
 protected:
  PeaksCache() : TempDirTest("peaks") {}
  void SetUp() override {
    TempDirTest::SetUp();
    setenv("NCPBENCH_CACHE_DIR", Path("cache").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("NCPBENCH_CACHE_DIR");
    TempDirTest::TearDown();
  }
};

TEST_F(PeaksCache, MeasuredPeaksRoundTripThroughTheCacheAndTheAttributes) {
  EXPECT_FALSE(CachedPeaks());
  const MachinePeaks p = MeasurePeaks(3 << 20);  // small arrays: this checks the plumbing
  for (double x : {p.bandwidth_gbs_1, p.bandwidth_gbs, p.gflops_1, p.gflops})
    EXPECT_TRUE(std::isfinite(x) && x > 0) << x;
  StorePeaks(p);
  const std::optional<MachinePeaks> c = CachedPeaks();
  ASSERT_TRUE(c);
  EXPECT_NEAR(c->bandwidth_gbs, p.bandwidth_gbs, 1e-5 * p.bandwidth_gbs);
  EXPECT_NEAR(c->gflops_1, p.gflops_1, 1e-5 * p.gflops_1);
  EXPECT_EQ(c->threads, p.threads);
  std::map<std::string, std::string> attrs;
  AddPeakAttrs(attrs);
  const std::optional<MachinePeaks> a = PeaksFromAttrs(attrs);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->bandwidth_gbs_1, c->bandwidth_gbs_1);
  EXPECT_EQ(a->measured, p.measured);
}

TEST_F(PeaksCache, CorruptCacheIsAnErrorNamingTheKeyAndTheRunsGoOnWithout) {
  StorePeaks(MeasurePeaks(3 << 20));
  std::ofstream(PeaksCachePath()) << "peak_bandwidth_gbs=-3\n";
  testing::ExpectError([] { CachedPeaks(); }, {PeaksCachePath(), "peak_bandwidth_gbs_1thread",
                                               "must be a positive number"});
  std::map<std::string, std::string> attrs;
  AddPeakAttrs(attrs);
  EXPECT_TRUE(attrs.empty());
}

}  // namespace
}  // namespace ncp
