// Performance profiles on hand-made runs with known times to tolerance: ratios, ρ(τ), the
// shifted geometric mean, the per-dataset fastest solver and the sentence when a Siconos solver
// beats all of ours; and plots/profiles.py draws the CSV.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "harness/profile.h"
#include "harness/report.h"

namespace ncp {
namespace {

// A run whose trace reaches res004 = 1e-7 at `t` seconds (never when t < 0).
RunRecord MadeRun(const std::string& dataset, const std::string& problem, const std::string& solver,
              double t, double total = 1.0) {
  RunRecord r;
  r.dataset = dataset;
  r.problem = problem;
  r.solver = solver;
  r.status = t >= 0 ? "converged" : "max-iterations";
  r.total_time_s = total;
  for (int k = 0; k < 3; ++k) {
    TracePoint p;
    p.time_s = t >= 0 ? t * (k + 1) / 3.0 : 0.3 * (k + 1);
    p.metrics[Metric::kRes004] = k == 2 && t >= 0 ? 1e-7 : 1e-3;
    r.trace.push_back(p);
  }
  return r;
}

const SolverProfile& Find(const ProfileResult& r, const std::string& s) {
  for (const SolverProfile& p : r.solvers)
    if (p.solver == s) return p;
  throw std::runtime_error("no solver " + s);
}

TEST(Profile, RatiosFractionsAndMeans) {
  const std::vector<RunRecord> rows = {
      MadeRun("d", "p1", "pgs", 0.2), MadeRun("d", "p1", "siconos:nsgs", 0.1),
      MadeRun("d", "p2", "pgs", 0.3), MadeRun("d", "p2", "siconos:nsgs", 0.9),
      MadeRun("d", "p3", "pgs", -1, 2.0), MadeRun("d", "p3", "siconos:nsgs", 0.5)};
  const ProfileResult r = ComputeProfiles(rows, 1e-6, 0.0);
  const SolverProfile& pgs = Find(r, "pgs");
  const SolverProfile& sic = Find(r, "siconos:nsgs");
  EXPECT_FALSE(pgs.peer);
  EXPECT_TRUE(sic.peer);
  EXPECT_EQ(pgs.solved, 2);
  EXPECT_EQ(sic.solved, 3);
  // pgs ratios: 2, 1, inf; siconos: 1, 3, 1.
  EXPECT_DOUBLE_EQ(pgs.Fraction(1.0), 1.0 / 3);
  EXPECT_DOUBLE_EQ(pgs.Fraction(2.0), 2.0 / 3);
  EXPECT_DOUBLE_EQ(pgs.Fraction(1e9), 2.0 / 3);
  EXPECT_DOUBLE_EQ(sic.Fraction(1.0), 2.0 / 3);
  EXPECT_DOUBLE_EQ(sic.Fraction(2.9), 2.0 / 3);
  EXPECT_DOUBLE_EQ(sic.Fraction(3.0), 1.0);
  // The unsolved p3 counts at the 2 s pgs spent on it (longer than siconos' 0.5 s).
  EXPECT_NEAR(pgs.shgeom_time_s, ShiftedGeometricMean({0.2, 0.3, 2.0}, kTimeShiftS), 1e-15);
  EXPECT_NEAR(sic.shgeom_time_s, ShiftedGeometricMean({0.1, 0.9, 0.5}, kTimeShiftS), 1e-15);
  ASSERT_EQ(r.datasets.size(), 1u);
  EXPECT_EQ(r.datasets[0].fastest, "siconos:nsgs");  // reached on 3/3 problems
  EXPECT_TRUE(r.datasets[0].peer_beats_ours);
  const std::string md = ProfileMarkdown(r);
  EXPECT_NE(md.find("The Siconos solver siconos:nsgs beats all of ours here (our fastest: pgs)"),
            std::string::npos) << md;
}

TEST(Profile, TimeBudgetIsTheFloorOfAFailureAndOursCanWin) {
  const std::vector<RunRecord> rows = {MadeRun("a", "p", "pgs", 0.1),
                                       MadeRun("a", "p", "siconos:nsgs", -1, 0.01)};
  const ProfileResult r = ComputeProfiles(rows, 1e-6, 5.0);
  EXPECT_NEAR(Find(r, "siconos:nsgs").shgeom_time_s, 5.0, 1e-12);  // 5 s budget, not 0.01 s
  ASSERT_EQ(r.datasets.size(), 1u);
  EXPECT_EQ(r.datasets[0].fastest, "pgs");
  EXPECT_FALSE(r.datasets[0].peer_beats_ours);
  EXPECT_EQ(ProfileMarkdown(r).find("beats all of ours"), std::string::npos);
}

TEST(Profile, NotApplicableCountsAtTheSlowestSuccess) {
  RunRecord na = MadeRun("a", "p", "admm-full", -1, 0.0);
  na.status = "not-applicable";
  const ProfileResult r = ComputeProfiles({MadeRun("a", "p", "pgs", 0.4), na}, 1e-6, 0.0);
  EXPECT_EQ(Find(r, "admm-full").not_applicable, 1);
  EXPECT_NEAR(Find(r, "admm-full").shgeom_time_s, 0.4, 1e-12);
  EXPECT_NE(ProfileMarkdown(r).find("0/1 (1 n/a)"), std::string::npos);
  // The common subset leaves the problem out, for every solver.
  const std::vector<RunRecord> common = RunsOnCommonProblems({MadeRun("a", "p", "pgs", 0.4), na,
                                                              MadeRun("a", "q", "pgs", 0.1),
                                                              MadeRun("a", "q", "admm-full", 0.2)});
  ASSERT_EQ(common.size(), 2u);
  EXPECT_EQ(common[0].problem, "q");
  EXPECT_EQ(common[1].problem, "q");
}

TEST(Profile, ProblemNobodySolvedHasNoRatio) {
  const ProfileResult r = ComputeProfiles({MadeRun("a", "p", "pgs", -1)}, 1e-6, 0.0);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_TRUE(std::isnan(r.entries[0].ratio));
  EXPECT_NE(ProfileMarkdown(r).find("no solver reached"), std::string::npos);
  EXPECT_NE(ProfileCsv(r).find("a,p,pgs,0,nan,nan"), std::string::npos);
}

TEST(Profile, PlotScriptDrawsTheCsv) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib, numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "matplotlib/numpy not available to /usr/bin/python3";
  const std::vector<RunRecord> rows = {MadeRun("d", "p1", "pgs", 0.2), MadeRun("d", "p1", "siconos:nsgs", 0.1),
                                       MadeRun("d", "p2", "pgs", 0.3), MadeRun("d", "p2", "siconos:nsgs", -1)};
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("ncp_profile_{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string csv = (dir / "p.csv").string(), png = (dir / "p.png").string();
  std::ofstream(csv) << ProfileCsv(ComputeProfiles(rows, 1e-6, 0.0));
  const int status = std::system(fmt::format("/usr/bin/python3 {}/plots/profiles.py {} -o {} >/dev/null",
                                             NCP_SOURCE_DIR, csv, png).c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  const int bad = std::system(fmt::format("/usr/bin/python3 {}/plots/profiles.py {}/missing.csv -o {} 2>/dev/null",
                                          NCP_SOURCE_DIR, dir.string(), png).c_str());
  EXPECT_TRUE(WIFEXITED(bad) && WEXITSTATUS(bad) == 2);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncp
