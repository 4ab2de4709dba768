// Performance profiles on hand-made runs with known times to tolerance: ratios, ρ(τ), the
// shifted geometric mean, the per-dataset fastest solver and the sentence when a Siconos solver
// beats all of ours, the virtual best solvers, our best vs Siconos' best per problem, the chosen
// metric and time budget, success by descriptor bin; and plots/profiles.py draws the CSV.
#include "harness/profile.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

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
  r.status = t >= 0 ? Outcome::kConverged : Outcome::kMaxIterations;
  r.total_time_s = total;
  for (int k = 0; k < 3; ++k) {
    TracePoint p;
    p.time_s = t >= 0 ? t * (k + 1) / 3.0 : 0.3 * (k + 1);
    p.metrics[Metric::kRes004] = k == 2 && t >= 0 ? 1e-7 : 1e-3;
    r.trace.push_back(p);
  }
  return r;
}

const SolverProfile& FindProfile(const ProfileResult& r, const std::string& s) {
  for (const SolverProfile& p : r.solvers)
    if (p.solver == s) return p;
  throw std::runtime_error("no solver " + s);
}

TEST(Profile, RatiosFractionsAndMeans) {
  const std::vector<RunRecord> rows = {
      MadeRun("d", "p1", "pgs", 0.2),     MadeRun("d", "p1", "siconos:nsgs", 0.1),
      MadeRun("d", "p2", "pgs", 0.3),     MadeRun("d", "p2", "siconos:nsgs", 0.9),
      MadeRun("d", "p3", "pgs", -1, 2.0), MadeRun("d", "p3", "siconos:nsgs", 0.5)};
  const ProfileResult r = ComputeProfiles(rows, 1e-6, 0.0);
  const SolverProfile& pgs = FindProfile(r, "pgs");
  const SolverProfile& sic = FindProfile(r, "siconos:nsgs");
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
  // Three problems carry no verdict; five do.
  const std::string three = ProfileMarkdown(r);
  EXPECT_NE(three.find("fastest to res004 ≤ 1e-06: not assessed (3 problems, fewer than 5)"),
            std::string::npos)
      << three;
  std::vector<RunRecord> five = rows;
  for (const char* p : {"p4", "p5"}) {
    five.push_back(MadeRun("d", p, "pgs", 0.4));
    five.push_back(MadeRun("d", p, "siconos:nsgs", 0.2));
  }
  const std::string md = ProfileMarkdown(ComputeProfiles(five, 1e-6, 0.0));
  EXPECT_NE(md.find("The Siconos solver siconos:nsgs beats all of ours here (our fastest: pgs)"),
            std::string::npos)
      << md;
}

TEST(Profile, TimeBudgetIsTheFloorOfAFailureAndOursCanWin) {
  const std::vector<RunRecord> rows = {MadeRun("a", "p", "pgs", 0.1),
                                       MadeRun("a", "p", "siconos:nsgs", -1, 0.01)};
  const ProfileResult r = ComputeProfiles(rows, 1e-6, 5.0);
  EXPECT_NEAR(FindProfile(r, "siconos:nsgs").shgeom_time_s, 5.0, 1e-12);  // 5 s budget, not 0.01 s
  ASSERT_EQ(r.datasets.size(), 1u);
  EXPECT_EQ(r.datasets[0].fastest, "pgs");
  EXPECT_FALSE(r.datasets[0].peer_beats_ours);
  EXPECT_EQ(ProfileMarkdown(r).find("beats all of ours"), std::string::npos);
}

// A problem a solver cannot take is no failure: it leaves that solver's counts and mean.
TEST(Profile, NotApplicableIsLeftOutOfTheSolversCountsAndMean) {
  RunRecord na = MadeRun("a", "p", "admm-full", -1, 0.0);
  na.status = Outcome::kNotApplicable;
  const ProfileResult r =
      ComputeProfiles({MadeRun("a", "p", "pgs", 0.4), na, MadeRun("a", "q", "pgs", 0.1),
                       MadeRun("a", "q", "admm-full", 0.2)},
                      1e-6, 0.0);
  const SolverProfile& admm = FindProfile(r, "admm-full");
  EXPECT_EQ(admm.not_applicable, 1);
  EXPECT_EQ(admm.problems, 1);
  EXPECT_EQ(admm.solved, 1);
  EXPECT_NEAR(admm.shgeom_time_s, 0.2, 1e-12);  // over q alone, not p at a penalty time
  EXPECT_DOUBLE_EQ(admm.Fraction(2.0), 1.0);    // 0.2 / 0.1 on the one problem it takes
  EXPECT_NE(ProfileMarkdown(r).find("| admm-full | 1/1 (1 n/a) |"), std::string::npos)
      << ProfileMarkdown(r);
  // The common subset leaves the problem out, for every solver.
  const std::vector<RunRecord> common =
      RunsOnCommonProblems({MadeRun("a", "p", "pgs", 0.4), na, MadeRun("a", "q", "pgs", 0.1),
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

// A problem with no time to count (nothing spent on it, no budget, nobody solved it) is left
// out of the means: it made every mean n/a; where no problem has one, the mean is n/a.
TEST(Profile, AProblemWithoutAnyKnownTimeLeavesTheMeans) {
  const ProfileResult r = ComputeProfiles(
      {MadeRun("d", "p1", "pgs", 0.002), MadeRun("d", "p2", "pgs", -1, /*total=*/0.0)}, 1e-6, 0.0);
  const SolverProfile& pgs = FindProfile(r, "pgs");
  EXPECT_EQ(pgs.solved, 1);
  EXPECT_NEAR(pgs.shgeom_time_s, 0.002, 1e-12);  // p1 alone
  const ProfileResult none =
      ComputeProfiles({MadeRun("d", "p2", "pgs", -1, /*total=*/0.0)}, 1e-6, 0.0);
  EXPECT_TRUE(std::isnan(FindProfile(none, "pgs").shgeom_time_s));
}

// Five problems with known answers for the virtual best and for ours vs Siconos:
//   p1: ours best pgs 0.2, Siconos best nsgs 0.1 (both, Siconos faster, ratio 2)
//   p2: only Siconos solves (nsn-ac 0.3)            p3: only ours (apgd 0.1)
//   p4: nobody (every run spent 1 s)                p5: ours pgs 0.2 vs nsn-ac 0.4 (ratio 0.5)
std::vector<RunRecord> FiveProblems() {
  const double t[5][4] = {{0.2, 0.4, 0.1, -1},
                          {-1, -1, 0.5, 0.3},
                          {0.3, 0.1, -1, -1},
                          {-1, -1, -1, -1},
                          {0.2, -1, 0.8, 0.4}};
  const char* solvers[4] = {"pgs", "apgd", "siconos:nsgs", "siconos:nsn-ac"};
  std::vector<RunRecord> rows;
  for (int p = 0; p < 5; ++p)
    for (int s = 0; s < 4; ++s)
      rows.push_back(MadeRun("d", fmt::format("p{}", p + 1), solvers[s], t[p][s]));
  return rows;
}

TEST(Profile, VirtualBestSolvers) {
  const ProfileResult r = ComputeProfiles(FiveProblems(), 1e-6, 0.0);
  ASSERT_EQ(r.virtual_best.size(), 3u);
  const SolverProfile &all = r.virtual_best[0], &ours = r.virtual_best[1], &sic = r.virtual_best[2];
  EXPECT_EQ(all.solver, kVirtualBest);
  EXPECT_EQ(all.solved, 4);
  EXPECT_DOUBLE_EQ(all.Fraction(1.0), 4.0 / 5);  // ratio 1 wherever anyone solves
  // p4 (unsolved) counts at the 1 s every solver spent on it.
  EXPECT_NEAR(all.shgeom_time_s, ShiftedGeometricMean({0.1, 0.3, 0.1, 1.0, 0.2}, kTimeShiftS),
              1e-15);
  EXPECT_EQ(ours.solver, kVirtualBestOurs);
  EXPECT_EQ(ours.solved, 3);                      // p1, p3, p5
  EXPECT_DOUBLE_EQ(ours.Fraction(1.0), 2.0 / 5);  // p3, p5; p1 at ratio 2
  EXPECT_DOUBLE_EQ(ours.Fraction(2.0), 3.0 / 5);
  EXPECT_EQ(sic.solved, 3);  // p1, p2, p5
  EXPECT_TRUE(sic.peer);
  EXPECT_DOUBLE_EQ(sic.Fraction(1.0), 2.0 / 5);  // p1, p2; p5 at ratio 2
  EXPECT_DOUBLE_EQ(sic.Fraction(1.99), 2.0 / 5);
  EXPECT_DOUBLE_EQ(sic.Fraction(2.0), 3.0 / 5);
  // Without Siconos solvers there is only the overall virtual best, equal to the best of ours.
  std::vector<RunRecord> mine;
  for (const RunRecord& row : FiveProblems())
    if (row.solver.rfind("siconos:", 0) != 0) mine.push_back(row);
  const ProfileResult o = ComputeProfiles(mine, 1e-6, 0.0);
  ASSERT_EQ(o.virtual_best.size(), 1u);
  EXPECT_EQ(o.virtual_best[0].solved, 3);
  EXPECT_TRUE(o.versus.empty());
  EXPECT_NE(ProfileMarkdown(o).find("No Siconos solver ran."), std::string::npos);
}

TEST(Profile, OursVersusSiconosPerProblem) {
  const ProfileResult r = ComputeProfiles(FiveProblems(), 1e-6, 0.0);
  const VersusSummary& v = r.versus_summary;
  EXPECT_EQ(v.problems, 5);
  EXPECT_EQ(v.peer_only, 1);  // p2: the key figure
  EXPECT_EQ(v.ours_only, 1);  // p3
  EXPECT_EQ(v.both, 2);       // p1, p5
  EXPECT_EQ(v.neither, 1);    // p4
  EXPECT_EQ(v.ours_faster, 1);
  EXPECT_EQ(v.peer_faster, 1);
  EXPECT_NEAR(v.geomean_ratio, 1.0, 1e-12);  // sqrt(2 · 0.5)
  ASSERT_EQ(r.versus.size(), 5u);
  EXPECT_EQ(r.versus[0].problem, "p1");
  EXPECT_EQ(r.versus[0].best_ours, "pgs");
  EXPECT_EQ(r.versus[0].best_peer, "siconos:nsgs");
  EXPECT_NEAR(r.versus[0].ratio, 2.0, 1e-12);
  EXPECT_EQ(r.versus[1].best_ours, "");
  EXPECT_EQ(r.versus[1].best_peer, "siconos:nsn-ac");
  EXPECT_TRUE(std::isnan(r.versus[1].ratio));
  EXPECT_EQ(r.versus[2].best_ours, "apgd");
  EXPECT_NEAR(r.versus[4].ratio, 0.5, 1e-12);
  const std::string md = ProfileMarkdown(r);
  EXPECT_NE(md.find("Siconos' best solves **1** that none of ours solves"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| d | p2 | none | — | siconos:nsn-ac | 300 | — |"), std::string::npos) << md;
  const std::string campaign = CampaignMarkdown("intro", {"bad.h5: not HDF5"}, {r}, {});
  EXPECT_NE(campaign.find("| res004 ≤ 1e-06 | 5 | 4 | 3 | 3 | 1 |"), std::string::npos) << campaign;
  EXPECT_NE(campaign.find("- bad.h5: not HDF5"), std::string::npos);
}

// Siconos' fc3d cannot take unilateral or bilateral rows: those problems are left out of its
// counts and of "ours vs Siconos", which says over how many problems it was computed.
TEST(Profile, OursVersusSiconosOverTheProblemsBothTake) {
  RunRecord na = MadeRun("d", "unilateral", "siconos:nsgs", -1, 0.0);
  na.status = Outcome::kNotApplicable;
  const ProfileResult r = ComputeProfiles(
      {MadeRun("d", "unilateral", "pgs", 0.5), na, MadeRun("d", "contact", "pgs", 0.2),
       MadeRun("d", "contact", "siconos:nsgs", 0.1)},
      1e-6, 0.0);
  const VersusSummary& v = r.versus_summary;
  EXPECT_EQ(v.problems, 1);
  EXPECT_EQ(v.peer_not_applicable, 1);
  EXPECT_EQ(v.ours_only, 0);  // the unilateral problem is no win of ours
  EXPECT_EQ(v.peer_faster, 1);
  const SolverProfile& nsgs = FindProfile(r, "siconos:nsgs");
  EXPECT_EQ(nsgs.problems, 1);
  EXPECT_EQ(nsgs.not_applicable, 1);
  EXPECT_NEAR(nsgs.shgeom_time_s, 0.1, 1e-12);
  ASSERT_EQ(r.virtual_best.size(), 3u);
  EXPECT_EQ(r.virtual_best[2].problems, 1);  // Siconos' virtual best: the problem it takes
  const std::string md = ProfileMarkdown(r);
  EXPECT_NE(md.find("Over the 1 problems both can take (left out: 1 that no Siconos solver can "
                    "take, 0 that none of ours can)"),
            std::string::npos)
      << md;
}

TEST(Profile, ChosenMetricAndTimeBudget) {
  RunRecord r = MadeRun("d", "p", "pgs", -1);  // res004 never below 1e-3
  for (std::size_t k = 0; k < r.trace.size(); ++k)
    r.trace[k].metrics[Metric::kNatmapRel] = k == 2 ? 1e-9 : 1e-2;  // reached at t = 0.9 s
  EXPECT_TRUE(std::isnan(TimeToMetric(r, Metric::kRes004, 1e-6)));
  EXPECT_DOUBLE_EQ(TimeToMetric(r, Metric::kNatmapRel, 1e-8), r.trace[2].time_s);
  EXPECT_EQ(ComputeProfiles({r}, 1e-6, 0.0).solvers[0].solved, 0);
  const ProfileResult n = ComputeProfiles({r}, 1e-8, 0.0, Metric::kNatmapRel);
  EXPECT_EQ(n.solvers[0].solved, 1);
  EXPECT_NE(ProfileMarkdown(n).find("natmap_rel ≤ 1e-08"), std::string::npos);
  // Reached after the per-problem budget: not solved.
  EXPECT_EQ(ComputeProfiles({r}, 1e-8, 0.5, Metric::kNatmapRel).solvers[0].solved, 0);
  EXPECT_EQ(ComputeProfiles({r}, 1e-8, 1.0, Metric::kNatmapRel).solvers[0].solved, 1);
  const std::string csv = ProfileCsv({n, ComputeProfiles({r}, 1e-4, 0.0, Metric::kNatmapRel)});
  EXPECT_EQ(
      csv.rfind("dataset,problem,solver,peer,time_to_tol_s,ratio,time_for_mean_s,metric,tol\n", 0),
      0u);
  // Every time in its shortest round-trip form: the plot reads back the report's double
  // exactly, and time_to_tol_s equals the trace's time_s bit for bit (9 digits did not).
  const std::string row = "d,p,pgs,0,0.8999999999999999,1,0.8999999999999999,natmap_rel,";
  EXPECT_NE(csv.find(row + "1e-08\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(row + "0.0001\n"), std::string::npos) << csv;
}

TEST(Profile, SuccessByDescriptorBin) {
  // q1: rank-deficient, mass ratio exactly 1000, 10 contacts, solved by pgs only;
  // q2: full rank, mass ratio 999, 9 contacts, solved by nobody; q3: local (NaN), solved by both.
  auto with = [](RunRecord r, double rank, double mass, int contacts) {
    r.descriptors.rank_ratio = rank;
    r.descriptors.mass_ratio = mass;
    r.num_contacts = contacts;
    return r;
  };
  const double nan = std::nan("");
  const std::vector<RunRecord> rows = {with(MadeRun("d", "q1", "pgs", 0.1), 0.5, 1000, 10),
                                       with(MadeRun("d", "q1", "apgd", -1), 0.5, 1000, 10),
                                       with(MadeRun("d", "q2", "pgs", -1), 1.0, 999, 9),
                                       with(MadeRun("d", "q2", "apgd", -1), 1.0, 999, 9),
                                       with(MadeRun("d", "q3", "pgs", 0.2), nan, nan, 12),
                                       with(MadeRun("d", "q3", "apgd", 0.3), nan, nan, 12)};
  const ProfileResult r = ComputeProfiles(rows, 1e-6, 0.0);
  auto find = [&](const std::string& d, const std::string& b) -> const DescriptorBin& {
    for (const DescriptorBin& x : r.bins)
      if (x.descriptor == d && x.bin == b) return x;
    throw std::runtime_error("no bin " + d + " " + b);
  };
  const DescriptorBin& deficient = find("rank ratio", "< 1 (rank-deficient W)");
  EXPECT_EQ(deficient.problems, 1);
  EXPECT_EQ(deficient.solved.at("pgs"), 1);
  EXPECT_EQ(deficient.solved.at("apgd"), 0);
  EXPECT_EQ(find("rank ratio", "= 1 (full rank)").solved.at(kVirtualBest), 0);
  EXPECT_EQ(find("rank ratio", "not computed").solved.at("apgd"), 1);
  EXPECT_EQ(find("mass ratio", "[1e3, 1e4)").problems, 1);  // exactly 1000: upper decade
  EXPECT_EQ(find("mass ratio", "[1e2, 1e3)").problems, 1);
  EXPECT_EQ(find("mass ratio", "n/a (local form)").problems, 1);
  const DescriptorBin& tens = find("contacts", "[10, 100)");
  EXPECT_EQ(tens.problems, 2);
  EXPECT_EQ(tens.solved.at(kVirtualBest), 2);
  EXPECT_EQ(find("contacts", "[1, 10)").problems, 1);
  EXPECT_EQ(r.bins.size(), 8u);
  EXPECT_NE(ProfileMarkdown(r).find("| contacts | [10, 100) | 2 | 100% | 50% | 100% |"),
            std::string::npos)
      << ProfileMarkdown(r);
}

// The plot prints the shifted geometric mean it draws; for every solver it is the number of the
// Markdown table, penalties of unsolved and not-applicable problems included.
TEST(Profile, PlotScriptDrawsTheMeansOfTheReport) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib, numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "matplotlib/numpy not available to /usr/bin/python3";
  std::vector<RunRecord> rows = {
      MadeRun("d", "p1", "pgs", 0.2),     MadeRun("d", "p1", "siconos:nsgs", 0.1),
      MadeRun("d", "p2", "pgs", 0.3),     MadeRun("d", "p2", "siconos:nsgs", -1, 4.5),
      MadeRun("d", "p3", "pgs", -1, 2.0), MadeRun("d", "p3", "siconos:nsgs", 0.0123),
      MadeRun("e", "q1", "pgs", 0.05),    MadeRun("e", "q1", "siconos:nsgs", -1, 0.01),
      MadeRun("e", "q1", "apgd", 0.07),   MadeRun("d", "p1", "apgd", 0.31)};
  RunRecord na = MadeRun("d", "p2", "apgd", -1, 0.0);
  na.status = Outcome::kNotApplicable;
  na.trace.clear();
  rows.push_back(na);
  const auto dir =
      std::filesystem::temp_directory_path() / fmt::format("ncp_profile_{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string csv = (dir / "p.csv").string(), png = (dir / "p.png").string();
  const std::string out = (dir / "out.txt").string(), err = (dir / "err.txt").string();
  const std::vector<ProfileResult> per_tol = {ComputeProfiles(rows, 1e-6, 0.0),
                                              ComputeProfiles(rows, 1e-2, 1.5)};
  std::ofstream(csv) << ProfileCsv(per_tol);
  const int status =
      std::system(fmt::format("/usr/bin/python3 {}/plots/profiles.py {} -o {} >{} 2>{}",
                              NCP_SOURCE_DIR, csv, png, out, err)
                      .c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  std::ifstream in(out);
  const std::string printed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const ProfileResult& r : per_tol) {
    const std::string md = ProfileMarkdown(r);
    ASSERT_EQ(r.solvers.size(), 3u);
    for (const SolverProfile& s : r.solvers) {
      const std::string mean = fmt::format("{:.3g}", s.shgeom_time_s * 1e3);
      // The report's table row ends with the mean; the plot prints the same digits.
      const std::size_t row = md.find(fmt::format("| {}{} | ", s.solver, s.peer ? " (peer)" : ""));
      ASSERT_NE(row, std::string::npos) << md;
      EXPECT_EQ(md.substr(row, md.find('\n', row) - row).rfind(" " + mean + " |"),
                md.find('\n', row) - row - mean.size() - 3)
          << md;
      const std::string line = fmt::format(
          "{}: shifted geometric mean {} ms (time to res004 <= {:g})\n", s.solver, mean, r.tol);
      EXPECT_NE(printed.find(line), std::string::npos) << s.solver << " " << mean << "\n"
                                                       << printed;
    }
  }
  // Penalties that differ from the largest finite time: the old CSV layout draws other means,
  // with a note.
  std::string old;
  {
    std::ifstream c(csv);
    for (std::string line; std::getline(c, line);) {  // drop the 7th column, time_for_mean_s
      std::size_t at = 0;
      for (int k = 0; k < 6; ++k) at = line.find(',', at) + 1;
      old += line.substr(0, at) + line.substr(line.find(',', at) + 1) + "\n";
    }
  }
  std::ofstream(csv) << old;
  const int legacy =
      std::system(fmt::format("/usr/bin/python3 {}/plots/profiles.py {} -o {} >{} 2>{}",
                              NCP_SOURCE_DIR, csv, png, out, err)
                      .c_str());
  EXPECT_TRUE(WIFEXITED(legacy) && WEXITSTATUS(legacy) == 0);
  std::ifstream e(err);
  const std::string note((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
  EXPECT_NE(note.find("no time_for_mean_s column"), std::string::npos) << note;
  std::ifstream o(out);
  const std::string legacy_printed((std::istreambuf_iterator<char>(o)),
                                   std::istreambuf_iterator<char>());
  EXPECT_NE(legacy_printed, printed);  // the penalty matters on these runs: the check can fail
  const int bad = std::system(
      fmt::format("/usr/bin/python3 {}/plots/profiles.py {}/missing.csv -o {} 2>/dev/null",
                  NCP_SOURCE_DIR, dir.string(), png)
          .c_str());
  EXPECT_TRUE(WIFEXITED(bad) && WEXITSTATUS(bad) == 2);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncp
