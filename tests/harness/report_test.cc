#include "harness/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include "harness/report_summary.h"
#include "harness/results_store.h"
#include "harness/system_info.h"
#include "tests/record_support.h"

namespace ncp {
namespace {

RunRecord ReportRow(const std::string& solver, const std::string& problem, double res004,
                    double natmap_rel, double total_time_s, Outcome status = Outcome::kConverged) {
  RunRecord r = testing::MadeRow(solver, problem, res004, status);
  r.iterations = 10;
  r.total_time_s = total_time_s;
  r.final_metrics[Metric::kNatmapRel] = natmap_rel;
  return r;
}

// A trace whose res004 falls below 1e-6 at time `reach_s` (never when reach_s is NaN).
std::vector<TracePoint> Trace(double reach_s) {
  std::vector<TracePoint> trace;
  for (int j = 0; j < 4; ++j) {
    TracePoint p;
    p.iteration = j;
    p.time_s = 1e-3 * (j + 1);
    p.metrics[Metric::kRes004] = std::isnan(reach_s) || p.time_s < reach_s ? 1e-3 : 1e-8;
    trace.push_back(p);
  }
  return trace;
}

const SolverSummary& FindSummary(const DatasetSummary& d, const std::string& label) {
  for (const SolverSummary& s : d.solvers) {
    if (s.label == label) return s;
  }
  throw std::runtime_error("no solver " + label);
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ReportTest, ShiftedGeometricMean) {
  EXPECT_DOUBLE_EQ(ShiftedGeometricMean({1.0, 1.0}, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(ShiftedGeometricMean({0.0, 3.0}, 1.0), 1.0);  // sqrt(1·4) − 1
  EXPECT_TRUE(std::isnan(ShiftedGeometricMean({}, 1.0)));
}

TEST(ReportTest, SuccessRatesAtProfiles) {
  const std::vector<RunRecord> rows = {
      ReportRow("fast", "p1", 1e-7, 1e-2, 0.001), ReportRow("fast", "p2", 1e-7, 1e-7, 0.001),
      ReportRow("fast", "p3", 1e-4, 1e-7, 0.001), ReportRow("fast", "p4", 1e-10, 1e-10, 0.001),
      // Diverged runs fail whatever their residual.
      ReportRow("slow", "p1", 1e-12, 1e-12, 0.002, Outcome::kDiverged),
      ReportRow("slow", "p2", 1e-2, 1e-2, 0.002),
      ReportRow("slow", "p3", 1e-2, 1e-2, 0.002, Outcome::kMaxIterations),
      ReportRow("slow", "p4", 1e-2, 1e-2, 0.002, Outcome::kTimeLimit)};
  const std::vector<DatasetSummary> summary = SummarizeResults(rows);
  ASSERT_EQ(summary.size(), 1u);
  const SolverSummary& fast = FindSummary(summary[0], "fast");
  EXPECT_EQ(fast.problems, 4);
  EXPECT_DOUBLE_EQ(fast.success_rate[0][0], 1.0);
  EXPECT_DOUBLE_EQ(fast.success_rate[0][1], 0.75);
  EXPECT_DOUBLE_EQ(fast.success_rate[0][2], 0.25);
  EXPECT_DOUBLE_EQ(fast.success_rate[1][0], 0.75);
  EXPECT_DOUBLE_EQ(fast.success_rate[1][1], 0.75);
  EXPECT_DOUBLE_EQ(fast.success_rate[1][2], 0.25);
  const SolverSummary& slow = FindSummary(summary[0], "slow");
  EXPECT_DOUBLE_EQ(slow.success_rate[0][2], 0.0);
  EXPECT_EQ(slow.status_counts, (std::array<int, kOutcomeNames.size()>{1, 1, 1, 1, 0, 0, 0}));

  const std::string report = MarkdownReport(rows, {});
  EXPECT_TRUE(Contains(report, "| fast | 4 | 100% | 75% | 25% | 75% | 75% | 25% |")) << report;
  EXPECT_TRUE(Contains(report, "| slow | 4 | 0% | 0% | 0% | 0% | 0% | 0% |")) << report;
  EXPECT_TRUE(Contains(report, "| 1/1/1/1/0/0/0 |")) << report;
  EXPECT_TRUE(Contains(report, "shift 1 ms")) << report;
}

TEST(ReportTest, TimesUseMinOverRepeatsAndBestSolverRatio) {
  RunRecord slow_repeat = ReportRow("a", "p1", 1e-7, 1e-7, 0.010);
  slow_repeat.repeat = 1;
  const std::vector<RunRecord> rows = {
      ReportRow("a", "p1", 1e-7, 1e-7, 0.004), slow_repeat, ReportRow("a", "p2", 1e-7, 1e-7, 0.004),
      ReportRow("b", "p1", 1e-7, 1e-7, 0.008), ReportRow("b", "p2", 1e-7, 1e-7, 0.008)};
  const DatasetSummary d = SummarizeResults(rows).at(0);
  EXPECT_EQ(FindSummary(d, "a").problems, 2);
  EXPECT_NEAR(FindSummary(d, "a").shgeom_time_s, 0.004, 1e-12);
  EXPECT_NEAR(FindSummary(d, "b").shgeom_time_s, 0.008, 1e-12);
  EXPECT_NEAR(FindSummary(d, "a").relative_time, 1.0, 1e-12);
  EXPECT_NEAR(FindSummary(d, "b").relative_time, 2.0, 1e-12);
  const std::string report = MarkdownReport(rows, {});
  EXPECT_TRUE(Contains(report, "| 4 | 1 | 10 | 1.00e-07 | n/a | 1.00e-07 |")) << report;
  EXPECT_TRUE(Contains(report, "| 8 | 2 | 10 |")) << report;
}

// Five problems, two solvers: "accurate" reaches 1e-6 on every one (median 3 ms), "quick" on the
// first only (1 ms).
std::vector<RunRecord> AccurateAndQuick() {
  std::vector<RunRecord> rows;
  const double reach[] = {0.002, 0.004, 0.003, 0.003, 0.003};
  for (int i = 0; i < 5; ++i) {
    const std::string p = "p" + std::to_string(i + 1);
    rows.push_back(ReportRow("accurate", p, 1e-10, 1e-10, 0.01));
    rows.back().trace = Trace(reach[i]);
    rows.push_back(ReportRow("quick", p, i == 0 ? 1e-7 : 1e-5, 1e-7, 0.01));
    rows.back().trace = Trace(i == 0 ? 0.001 : std::nan(""));
  }
  return rows;
}

TEST(ReportTest, NamesMostAccurateAndFastest) {
  std::vector<RunRecord> rows = AccurateAndQuick();
  const DatasetSummary d = SummarizeResults(rows).at(0);
  EXPECT_EQ(FindSummary(d, "accurate").reached_tolerance, 5);
  EXPECT_NEAR(FindSummary(d, "accurate").median_time_to_tolerance_s, 0.003, 1e-12);
  EXPECT_EQ(FindSummary(d, "quick").reached_tolerance, 1);
  const std::string report = MarkdownReport(rows, {});
  EXPECT_TRUE(Contains(report, "Sample: 5 problems × 1 repeat; budget iters=100.")) << report;
  EXPECT_TRUE(Contains(report, "Most accurate: **accurate** (median final res004 1.00e-10)"))
      << report;
  // "quick" is faster on the one problem it solves, but "accurate" reaches the tolerance on more.
  EXPECT_TRUE(Contains(report,
                       "Most problems to res004 ≤ 1e-6 (in the trace), then least median "
                       "time to it: **accurate** (5/5, median 3 ms); runner-up quick (1/5, "
                       "median 1 ms): accurate by 4 more problems, median 3 × slower."))
      << report;
  // The table holds the figures the line names.
  EXPECT_TRUE(Contains(report, "| 5/5 | 3 |")) << report;
  EXPECT_TRUE(Contains(report, "| 1/5 | 1 |")) << report;
  // With equal reach, the lower median time wins.
  for (RunRecord& r : rows)
    if (r.solver == "quick") r.trace = Trace(0.001);
  EXPECT_TRUE(Contains(MarkdownReport(rows, {}),
                       "then least median time to it: **quick** (5/5, median 1 ms); runner-up "
                       "accurate (5/5, median 3 ms): quick by 3 × faster."));
}

// A verdict is drawn from five problems or more, between two solvers or more, from traces, and
// a tie is said as one: otherwise "not assessed" and why, never a winner.
TEST(ReportTest, VerdictsNeedASampleThatCarriesThem) {
  const auto says = [](const std::vector<RunRecord>& rows, const std::string& needle) {
    const std::string report = MarkdownReport(rows, {});
    EXPECT_TRUE(Contains(report, needle)) << needle << "\n" << report;
  };
  const std::vector<RunRecord> rows = AccurateAndQuick();
  const std::vector<RunRecord> four(rows.begin(), rows.begin() + 8);
  for (const char* needle : {"Most accurate: not assessed (4 problems, fewer than 5).",
                             "time to it: not assessed (4 problems, fewer than 5).",
                             "| not assessed (4 problems, fewer than 5) |"})
    says(four, needle);
  std::vector<RunRecord> alone;
  for (const RunRecord& r : rows)
    if (r.solver == "accurate") alone.push_back(r);
  says(alone, "Most accurate: not assessed (one solver: nothing to compare).");
  EXPECT_FALSE(Contains(MarkdownReport(alone, {}), "**accurate**"));
  std::vector<RunRecord> untraced = rows;
  for (RunRecord& r : untraced) r.trace.clear();
  says(untraced, "time to it: not assessed (the runs kept no trace: run with --trace K).");
  // Runs stopped at --tol 1e-4 say nothing about who reaches 1e-6 first.
  std::vector<RunRecord> loose = rows;
  for (RunRecord& r : loose) r.budget = "iters=100;tol=0.0001";
  says(loose, "time to it: not assessed (the runs stopped at --tol 0.0001, short of 1e-06).");
  // Equal figures: a tie, in the lines and in the summary.
  std::vector<RunRecord> tied = rows;
  for (RunRecord& r : tied) {
    r.final_metrics[Metric::kRes004] = 1e-10;
    r.trace = Trace(0.002);
  }
  for (const char* needle : {"Most accurate: a tie of **accurate** and quick",
                             "time to it: a tie of **accurate** and quick (5/5, median 2 ms each).",
                             "| tie: **accurate**, **quick** |"})
    says(tied, needle);
  // Medians both at round-off (≤ 1e-12) are a tie: 3e-16 against 1.5e-15 is rounding.
  std::vector<RunRecord> exact = rows;
  for (RunRecord& r : exact)
    r.final_metrics[Metric::kRes004] = r.solver == "quick" ? 1.5e-15 : 3e-16;
  says(exact,
       "Most accurate: a tie of **accurate** and quick (median final res004 at round-off, "
       "≤ 1e-12).");
  // Most robust: equal counts are a tie too (time does not break it), and runs stopped at a
  // looser --tol say nothing about who solves most at the high profile.
  says(tied, "| tie: accurate, quick |");
  says(loose, "| not assessed (the runs stopped at --tol 0.0001, short of 1e-09) |");
  // With no dataset assessed, nothing is ranked across datasets.
  says(four, "Not ranked: no dataset has a sole assessed winner");
}

// A tolerance the trace reached past the run's time budget (its last iteration overran it) was
// not reached within the budget.
TEST(ReportTest, ToleranceReachedPastTheTimeBudgetIsNotReached) {
  RunRecord r = ReportRow("a", "p1", 1e-8, 1e-8, 0.004, Outcome::kTimeLimit);
  r.trace = Trace(0.003);  // reaches 1e-6 at 3 ms
  r.budget = "iters=100;time_ms=2";
  EXPECT_EQ(FindSummary(SummarizeResults({r}).at(0), "a").reached_tolerance, 0);
  r.budget = "iters=100;time_ms=5";
  EXPECT_EQ(FindSummary(SummarizeResults({r}).at(0), "a").reached_tolerance, 1);
}

// The residual at the best time is the best repeat's by then: the best time is a minimum over
// repeats, and repeat 0 alone may not have reached what a faster repeat did.
TEST(ReportTest, ResidualAtBestTimeComesFromTheRepeatsThatSetIt) {
  RunRecord slow0 = ReportRow("accurate", "p1", 1e-10, 1e-10, 0.01), fast1 = slow0;
  slow0.trace = Trace(0.004);  // repeat 0 reaches 1e-6 at 4 ms
  fast1.repeat = 1;
  fast1.trace = Trace(0.001);  // repeat 1 at 1 ms: the best time on p1
  const DatasetSummary d = SummarizeResults({slow0, fast1}).at(0);
  // The best time is 1 ms, where repeat 1 is at 1e-8 (repeat 0 still at 1e-3).
  EXPECT_EQ(FindSummary(d, "accurate").median_res004_at_best_time, 1e-8);
  EXPECT_EQ(d.repeats, 2);
}

// A solver whose first trace point comes after the best time (a long setup) had no iterate
// then: inf, not the residual of its first point (which it reached later).
TEST(ReportTest, ResidualAtBestTimeIsInfBeforeTheFirstTracePoint) {
  RunRecord fast = ReportRow("fast", "p1", 1e-10, 1e-10, 0.01);
  fast.trace = Trace(0.001);  // 1e-6 at 1 ms
  RunRecord late = ReportRow("late", "p1", 1e-10, 1e-10, 0.02);
  late.trace = Trace(0.004);
  for (TracePoint& p : late.trace) p.time_s += 0.002;  // its first point at 3 ms
  const DatasetSummary d = SummarizeResults({fast, late}).at(0);
  EXPECT_EQ(FindSummary(d, "fast").median_res004_at_best_time, 1e-8);
  EXPECT_TRUE(std::isinf(FindSummary(d, "late").median_res004_at_best_time));
  EXPECT_TRUE(std::isinf(Res004AtTime(late, 0.001)));
  EXPECT_EQ(Res004AtTime(late, 0.0035), 1e-3);
}

// A relative time that rounds to 1 at three digits is shown with as many as tell it from the
// best's (two solvers read "1" where one was 0.2% slower).
TEST(ReportTest, ARelativeTimeNearOneIsNotShownAsTheBest) {
  const std::string report = MarkdownReport(
      {ReportRow("a", "p1", 1e-9, 1e-9, 0.902), ReportRow("b", "p1", 1e-9, 1e-9, 0.904)}, {});
  EXPECT_TRUE(Contains(report, "| 1.002 |")) << report;
}

TEST(ReportTest, RunsThatDidNotRunHaveNoTime) {
  RunRecord na =
      ReportRow("global-only", "p1", std::nan(""), std::nan(""), 1e-6, Outcome::kNotApplicable);
  RunRecord ok = ReportRow("dual", "p1", 1e-9, 1e-9, 0.02, Outcome::kConverged);
  const std::string report = MarkdownReport({na, ok}, {});
  EXPECT_TRUE(
      Contains(report, "| global-only | 1 | 0% | 0% | 0% | 0% | 0% | 0% | n/a | n/a | n/a | n/a |"))
      << report;
  EXPECT_TRUE(Contains(
      report, "| dual | 1 | 100% | 100% | 100% | 100% | 100% | 100% | n/a | n/a | 20 | 1 |"))
      << report;
}

TEST(ReportTest, HandlesNaNMetrics) {
  RunRecord broken = ReportRow("broken", "p1", std::nan(""), std::nan(""), -1.0, Outcome::kFailed);
  broken.iterations = -1;
  RunRecord blowup = ReportRow("broken", "p2", INFINITY, std::nan(""), 0.5, Outcome::kDiverged);
  blowup.trace = Trace(std::nan(""));
  blowup.trace[1].metrics[Metric::kRes004] = std::nan("");
  const std::vector<RunRecord> rows = {broken, blowup};
  const DatasetSummary d = SummarizeResults(rows).at(0);
  const SolverSummary& s = FindSummary(d, "broken");
  EXPECT_DOUBLE_EQ(s.success_rate[0][0], 0.0);
  EXPECT_TRUE(std::isinf(s.median_res004));
  EXPECT_EQ(d.most_accurate, -1);
  EXPECT_EQ(d.fastest, -1);
  const std::string report = MarkdownReport(rows, {});
  // Neither the failed nor the diverged run has a time: nothing to rank the solver by.
  EXPECT_TRUE(Contains(
      report, "| broken | 2 | 0% | 0% | 0% | 0% | 0% | 0% | 0/2 | n/a | n/a | n/a | 10 | inf"))
      << report;
  EXPECT_TRUE(Contains(report, "| 0/0/0/1/1/0/0 |")) << report;
  // Two problems of one solver carry no verdict.
  EXPECT_TRUE(Contains(report, "Most accurate: not assessed (2 problems, fewer than 5)."))
      << report;
  EXPECT_TRUE(Contains(report,
                       "then least median time to it: not assessed (2 problems, fewer "
                       "than 5)."))
      << report;
}

// The summary names the solver that solves most to 1e-6 (then the faster), the most robust at
// 1e-9, and never ranks a solver whose runs diverged, however fast they ended.
TEST(ReportTest, SummaryRecommendsBySuccessThenTimeAndNeverRanksDiverged) {
  std::vector<RunRecord> rows;
  for (const char* p : {"p1", "p2", "p3", "p5"}) {
    rows.push_back(ReportRow("accurate", p, 1e-10, 1e-10, 0.5));
    rows.back().trace = Trace(4e-3);
    rows.push_back(ReportRow("quick", p, 1e-7, 1e-7, 0.01));
    rows.back().trace = Trace(1e-3);
    rows.push_back(ReportRow("blowup", p, 1e-12, 1e-12, 1e-4, Outcome::kDiverged));
  }
  rows.push_back(ReportRow("quick", "p4", 1e-2, 1e-2, 0.01, Outcome::kMaxIterations));
  rows.push_back(ReportRow("accurate", "p4", 1e-7, 1e-7, 0.5));
  rows.back().trace = Trace(4e-3);
  rows.push_back(ReportRow("blowup", "p4", 1e-12, 1e-12, 1e-4, Outcome::kDiverged));
  const DatasetSummary d = SummarizeResults(rows).at(0);
  const DatasetPick pick = PickSolvers(d);
  ASSERT_GE(pick.recommended, 0);
  EXPECT_EQ(d.solvers[pick.recommended].label, "accurate");  // 5/5 at 1e-6 against quick's 4/5
  EXPECT_EQ(d.solvers[pick.robust].label, "accurate");       // 4/5 at 1e-9, quick 0/5
  ASSERT_EQ(pick.unranked.size(), 1u);
  EXPECT_EQ(d.solvers[pick.unranked[0]].label, "blowup");
  const std::string report = MarkdownReport(rows, {});
  EXPECT_LT(report.find("## Summary"), report.find("## Dataset"));
  EXPECT_TRUE(Contains(
      report,
      "| cubes | 5 | **accurate** | 5/5 | 4 ms | quick (4/5, 1 ms) | accurate | 4/5 / 5/5 | "
      "blowup (5 diverged) |"))
      << report;
  // In the ranking across datasets the diverged solver comes last, with 0%.
  EXPECT_TRUE(Contains(report, "| 3 | blowup | 0 | 0% | 1 | 0 | 0 |")) << report;
  // Its time is not a time: the table shows none.
  EXPECT_TRUE(std::isnan(FindSummary(d, "blowup").shgeom_time_s));
}

// A run stopped at --tol 1e-8: the high profile is 1e-8 (1e-9 would only measure overshoot), the
// final residuals do not name a "most accurate", and the header says which profiles are fixed.
TEST(ReportTest, HighProfileFollowsTheRunTolerance) {
  std::vector<RunRecord> rows;
  for (const char* p : {"p1", "p2", "p3", "p4", "p5"}) {
    rows.push_back(ReportRow("a", p, 9e-9, 9e-9, 0.01));
    rows.push_back(ReportRow("b", p, 5e-9, 5e-9, 0.02));
  }
  for (RunRecord& r : rows) r.budget = "iters=100;time_ms=0;tol=1e-08;tol_metric=res004";
  const DatasetSummary d = SummarizeResults(rows).at(0);
  EXPECT_DOUBLE_EQ(d.tolerances[2], 1e-8);
  EXPECT_DOUBLE_EQ(d.run_tolerance, 1e-8);
  EXPECT_DOUBLE_EQ(FindSummary(d, "a").success_rate[0][2], 1.0);
  const std::string report = MarkdownReport(rows, {});
  EXPECT_TRUE(Contains(report, "| res004 ≤ 1e-8 |")) << report;
  EXPECT_TRUE(Contains(report, "high = the run's --tol (1e-8)")) << report;
  EXPECT_TRUE(Contains(report, "solved ≤ 1e-8 / ≤ 1e-6")) << report;
  EXPECT_TRUE(Contains(report,
                       "Most accurate: not ranked — 2 solvers stopped at the run's "
                       "tolerance 1e-8"))
      << report;
  // Mixed tolerances, or none: the fixed 1e-9.
  rows[0].budget = "iters=100";
  EXPECT_DOUBLE_EQ(SummarizeResults(rows).at(0).tolerances[2], 1e-9);
  EXPECT_TRUE(std::isnan(SummarizeResults(rows).at(0).run_tolerance));
  // A loose --tol (1e-4) keeps the fixed profiles.
  for (RunRecord& r : rows) r.budget = "iters=100;tol=1e-4";
  EXPECT_DOUBLE_EQ(SummarizeResults(rows).at(0).tolerances[2], 1e-9);
}

// Error at a fixed budget: every solver's res004 at the time the fastest one reached 1e-6, and
// the messages of runs that are not counted.
TEST(ReportTest, ErrorAtTheBestSolversTimeAndReasons) {
  std::vector<RunRecord> rows;
  rows.push_back(ReportRow("quick", "p1", 1e-8, 1e-8, 0.004));
  rows.back().trace = Trace(2e-3);  // 1e-3 until 2 ms, then 1e-8
  rows.push_back(ReportRow("slow", "p1", 1e-8, 1e-8, 0.004));
  rows.back().trace = Trace(4e-3);
  rows.push_back(ReportRow("never", "p1", 1e-3, 1e-3, 0.004, Outcome::kDiverged));
  rows.back().message = "lambda not finite at iteration 3";
  rows.push_back(ReportRow("skip", "p1", 1e-3, 1e-3, 0.0, Outcome::kNotApplicable));
  rows.back().message = "no unilateral rows";
  const DatasetSummary d = SummarizeResults(rows).at(0);
  EXPECT_DOUBLE_EQ(FindSummary(d, "quick").median_res004_at_best_time, 1e-8);
  EXPECT_DOUBLE_EQ(FindSummary(d, "slow").median_res004_at_best_time, 1e-3);
  EXPECT_TRUE(std::isinf(FindSummary(d, "skip").median_res004_at_best_time));
  const std::string report = MarkdownReport(rows, {});
  EXPECT_TRUE(Contains(report, "- never: 1 × diverged: lambda not finite at iteration 3"))
      << report;
  EXPECT_TRUE(Contains(report, "- skip: 1 × not-applicable: no unilateral rows")) << report;
  EXPECT_TRUE(Contains(report, "## Metrics and sources")) << report;
  EXPECT_TRUE(Contains(report, "Variations of Augmented Lagrangian for Robotic Multi-Contact"))
      << report;
}

TEST(ReportTest, HeaderShowsRunAttributes) {
  const std::map<std::string, std::string> attrs = {{kRunAttrDate, "2024-05-01T10:00:00Z"},
                                                    {kRunAttrCpu, "Test CPU"},
                                                    {kRunAttrThreads, "8"},
                                                    {kRunAttrOpenMpEnv, "OMP_WAIT_POLICY=active"},
                                                    {kRunAttrGitRevision, "abc1234"},
                                                    {kRunAttrVersion, "0.1.0"},
                                                    {kRunAttrVersionCompiler, "gcc 12.2.0"},
                                                    {kRunAttrVersionSiconos, "4.4.0"},
                                                    {"dataset_hash:cubes", "feedbeef"}};
  const std::string report = MarkdownReport({ReportRow("a", "p1", 1e-7, 1e-7, 0.01)}, attrs);
  EXPECT_EQ(report.rfind("# ncpbench report", 0), 0u);
  for (const char* line :
       {"- Date: 2024-05-01T10:00:00Z", "- CPU: Test CPU", "- Threads: 8",
        "- OpenMP environment: OMP_WAIT_POLICY=active", "- Git revision: abc1234",
        "- Version: 0.1.0 (gcc 12.2.0, Siconos Numerics 4.4.0)", "- Dataset hashes: cubes feedbeef",
        "## Dataset cubes"}) {
    EXPECT_TRUE(Contains(report, line)) << line << "\n" << report;
  }
  EXPECT_TRUE(Contains(MarkdownReport({}, {}), "- CPU: unknown"));
  EXPECT_FALSE(Contains(MarkdownReport({}, {}), "OpenMP environment"));  // older files
}

// What the attribute records: the timing-relevant OpenMP variables that are set, in a fixed
// order, or "defaults".
TEST(ReportTest, OpenMpEnvironmentNamesTheVariablesSet) {
  const char* names[] = {"OMP_WAIT_POLICY", "OMP_PROC_BIND",  "OMP_PLACES",
                         "OMP_DYNAMIC",     "GOMP_SPINCOUNT", "GOMP_CPU_AFFINITY"};
  std::map<std::string, std::string> saved;
  for (const char* n : names)
    if (const char* v = std::getenv(n)) saved[n] = v;
  for (const char* n : names) unsetenv(n);
  EXPECT_EQ(OpenMpEnvironment(), "defaults");
  setenv("OMP_PROC_BIND", "true", 1);
  setenv("OMP_WAIT_POLICY", "passive", 1);
  EXPECT_EQ(OpenMpEnvironment(), "OMP_WAIT_POLICY=passive, OMP_PROC_BIND=true");
  EXPECT_EQ(HostRunAttrs("").at(kRunAttrOpenMpEnv), OpenMpEnvironment());
  for (const char* n : names) unsetenv(n);
  for (const auto& [n, v] : saved) setenv(n.c_str(), v.c_str(), 1);
}

TEST(ReportTest, HeaderListsHostsAndWarnsWhenCpuModelsMix) {
  RunRecord a = ReportRow("pgs", "p1", 1e-7, 1e-7, 0.01),
            b = ReportRow("apgd", "p1", 1e-7, 1e-7, 0.02);
  a.host = "node1", a.cpu = "CPU X";
  b.host = "node1", b.cpu = "CPU X";
  const std::string one = MarkdownReport({a, b}, {});
  EXPECT_TRUE(Contains(one, "- Hosts: node1 (CPU X, 2 runs)")) << one;
  EXPECT_FALSE(Contains(one, "different CPU models"));
  b.host = "node2", b.cpu = "CPU Y";
  const std::string two = MarkdownReport({a, b}, {});
  EXPECT_TRUE(Contains(two, "- Hosts: node1 (CPU X, 1 runs), node2 (CPU Y, 1 runs)")) << two;
  EXPECT_TRUE(Contains(two, "the runs come from 2 different CPU models")) << two;
  // Rows from files written before the host column: no Hosts line.
  EXPECT_FALSE(Contains(MarkdownReport({ReportRow("a", "p1", 1e-7, 1e-7, 0.01)}, {}), "- Hosts:"));
}

TEST(ReportTest, VariantsOfOneSolverGetDistinctLabels) {
  RunRecord a = ReportRow("pgs", "p1", 1e-7, 1e-7, 0.01);
  RunRecord b = a;
  b.settings = "omega=1.5";
  RunRecord c = ReportRow("apgd", "p1", 1e-7, 1e-7, 0.01);
  c.dataset = "stack";
  const std::vector<DatasetSummary> d = SummarizeResults({a, b, c});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].dataset, "cubes");
  ASSERT_EQ(d[0].solvers.size(), 2u);
  EXPECT_EQ(d[0].solvers[0].label, "pgs (omega=1)");
  EXPECT_EQ(d[0].solvers[1].label, "pgs (omega=1.5)");
  EXPECT_EQ(d[1].solvers.at(0).label, "apgd");
}

}  // namespace
}  // namespace ncp
