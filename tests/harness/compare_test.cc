// CompareRuns: residual changes in decades, status ranks, time ratios, and its input rules.
#include "harness/compare.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "tests/expect_error.h"
#include "tests/record_support.h"

namespace ncp {
namespace {

RunRecord Row(const std::string& solver, const std::string& problem, double res004, double natmap,
              Outcome status = Outcome::kMaxIterations, double time_s = 0.01, int repeat = 0) {
  RunRecord r = testing::MadeRow(solver, problem, res004, status);
  r.job_key += "/" + std::to_string(repeat);
  r.repeat = repeat;
  r.total_time_s = time_s;
  r.final_metrics[Metric::kNatmapAbs] = natmap;
  return r;
}

std::vector<RunRecord> Base() {
  return {Row("pgs", "p1", 1e-4, 1e-3), Row("pgs", "p2", 1e-6, 1e-5, Outcome::kConverged),
          Row("admm-full", "p1", 1e-8, 1e-7)};
}

TEST(StatusRank, OrdersOutcomes) {
  EXPECT_LT(StatusRank(Outcome::kConverged), StatusRank(Outcome::kMaxIterations));
  EXPECT_EQ(StatusRank(Outcome::kMaxIterations), StatusRank(Outcome::kTimeLimit));
  EXPECT_LT(StatusRank(Outcome::kTimeLimit), StatusRank(Outcome::kDiverged));
  EXPECT_LT(StatusRank(Outcome::kDiverged), StatusRank(Outcome::kFailed));
  EXPECT_EQ(StatusRank(Outcome::kFailed), StatusRank(Outcome::kNotApplicable));
}

TEST(Compare, IdenticalHasNoRegression) {
  const CompareResult r = CompareRuns(Base(), Base(), {});
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.regressions, 0);
  EXPECT_EQ(r.improvements, 0);
  for (const CompareRow& row : r.rows)
    for (const MetricChange& c : row.metrics) EXPECT_EQ(c.decades, 0.0);
  EXPECT_DOUBLE_EQ(r.median_time_ratio, 1.0);
  EXPECT_NE(CompareSummary(r, {}).find(": OK"), std::string::npos);
}

TEST(Compare, ResidualWorseByMoreThanToleranceIsARegression) {
  std::vector<RunRecord> now = Base();
  now[0].final_metrics[Metric::kRes004] = 1e-4 * std::pow(10.0, 0.5);     // +0.5 decades
  now[2].final_metrics[Metric::kNatmapAbs] = 1e-7 * std::pow(10.0, 0.2);  // +0.2: tolerated
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_EQ(r.regressions, 1);
  EXPECT_EQ(r.metric_regressions[0], 1);  // res004
  EXPECT_EQ(r.metric_regressions[1], 0);  // natmap
  EXPECT_EQ(r.status_regressions, 0);
  for (const CompareRow& row : r.rows) {
    if (row.solver == "pgs" && row.problem == "p1") {
      EXPECT_NEAR(row.metrics[0].decades, 0.5, 1e-12);
      EXPECT_TRUE(row.regression());
    }
    if (row.solver == "admm-full") {
      EXPECT_NEAR(row.metrics[1].decades, 0.2, 1e-12);
    }
  }
  EXPECT_NE(CompareSummary(r, {}).find(": FAIL"), std::string::npos);
  EXPECT_NE(CompareMarkdown(r, {}).find("REGRESSION"), std::string::npos);
  CompareOptions loose;
  loose.tol_decades = 0.6;
  EXPECT_EQ(CompareRuns(Base(), now, loose).regressions, 0);
}

TEST(Compare, NonFiniteResidualIsWorseAndBetterResidualIsNot) {
  std::vector<RunRecord> now = Base();
  now[0].final_metrics[Metric::kNatmapAbs] = std::nan("");
  now[2].final_metrics[Metric::kRes004] = 1e-10;  // two decades better
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_EQ(r.regressions, 1);
  EXPECT_EQ(r.improvements, 1);
}

TEST(Compare, ResidualsUnderTheFloorCountAsEqual) {
  std::vector<RunRecord> base = Base(), now = Base();
  base[2].final_metrics[Metric::kRes004] = 1e-17;
  now[2].final_metrics[Metric::kRes004] = 1e-14;  // 3 decades, but both at rounding level
  EXPECT_EQ(CompareRuns(base, now, {}).regressions, 0);
  CompareOptions fine;
  fine.floor = 1e-20;
  EXPECT_EQ(CompareRuns(base, now, fine).regressions, 1);
}

TEST(Compare, WorseStatusIsARegressionEqualRankIsNot) {
  std::vector<RunRecord> now = Base();
  now[1].status = Outcome::kMaxIterations;  // was converged
  EXPECT_EQ(CompareRuns(Base(), now, {}).status_regressions, 1);
  now = Base();
  now[0].status = Outcome::kTimeLimit;  // same rank as max-iterations
  EXPECT_EQ(CompareRuns(Base(), now, {}).regressions, 0);
  now[2].status = Outcome::kDiverged;
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_EQ(r.regressions, 1);
  EXPECT_NE(CompareMarkdown(r, {}).find("max-iterations → diverged"), std::string::npos);
}

TEST(Compare, TimeRatiosAreReportedButNeverFail) {
  std::vector<RunRecord> now = Base();
  for (RunRecord& r : now) r.total_time_s *= 10.0;
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_EQ(r.regressions, 0);
  EXPECT_NEAR(r.median_time_ratio, 10.0, 1e-9);
  for (const CompareRow& row : r.rows) EXPECT_NEAR(row.time_ratio, 10.0, 1e-9);
}

// A run that diverged (stopping early) or ran other settings did other work: its time is shown
// on its row but is no speed change, so the median leaves it out and the summary says so.
TEST(Compare, TheMedianTimeRatioIsOverLikeForLikeJobs) {
  std::vector<RunRecord> now = Base();
  for (RunRecord& r : now) r.total_time_s *= 2.0;
  now[0].status = Outcome::kDiverged;
  now[0].total_time_s = Base()[0].total_time_s * 0.01;
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_NEAR(r.median_time_ratio, 2.0, 1e-9);
  EXPECT_EQ(r.time_ratio_rows, static_cast<int>(r.rows.size()) - 1);
  EXPECT_NE(CompareSummary(r, {}).find(fmt::format(
                "median time ratio 2 (over the {} of {} jobs with the same status and settings)",
                r.rows.size() - 1, r.rows.size())),
            std::string::npos)
      << CompareSummary(r, {});
}

TEST(Compare, RepeatZeroGivesAccuracyMinimumGivesTime) {
  std::vector<RunRecord> base = {Row("pgs", "p1", 1e-4, 1e-3, Outcome::kMaxIterations, 0.04, 0),
                                 Row("pgs", "p1", 1e-4, 1e-3, Outcome::kMaxIterations, 0.02, 1)};
  std::vector<RunRecord> now = {Row("pgs", "p1", 1e-4, 1e-3, Outcome::kMaxIterations, 0.01, 0),
                                Row("pgs", "p1", 1.0, 1.0, Outcome::kDiverged, 0.05, 1)};
  const CompareResult r = CompareRuns(base, now, {});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.regressions, 0);
  EXPECT_NEAR(r.rows[0].time_ratio, 0.5, 1e-12);
}

TEST(Compare, UnmatchedJobsAreCountedAndNoOverlapIsAnError) {
  std::vector<RunRecord> now = Base();
  now.push_back(Row("apgd", "p1", 1e-3, 1e-3));
  now.erase(now.begin());
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.only_in_base, 1);
  EXPECT_EQ(r.only_in_new, 1);
  std::vector<RunRecord> other = Base();
  for (RunRecord& row : other) row.budget = "iters=7";
  EXPECT_THROW(CompareRuns(Base(), other, {}), Error);
}

TEST(Compare, PairsAJobWhoseSettingsStringChanged) {
  std::vector<RunRecord> now = Base();
  now[0].settings = "omega=1;new_setting=0";     // a setting was added to pgs
  now[0].final_metrics[Metric::kRes004] = 1e-2;  // and it got two decades worse
  const CompareResult r = CompareRuns(Base(), now, {});
  EXPECT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.only_in_base + r.only_in_new, 0);
  EXPECT_EQ(r.regressions, 1);
  EXPECT_NE(CompareMarkdown(r, {}).find("pgs (settings changed)"), std::string::npos);
}

// Two rows of one file that pair as one job (one name, two datasets) were compared as the
// first, the second dropped unseen.
TEST(Compare, TwoRowsOfOneSideThatPairAsOneJobAreRefused) {
  std::vector<RunRecord> now = Base();
  RunRecord twin = now[0];
  twin.job_key += "|other";
  twin.status = Outcome::kDiverged;
  now.push_back(twin);
  testing::ExpectError([&] { CompareRuns(Base(), now, {}); },
                       {"the new results hold two rows for", "(repeat 0)", "|other'"});
}

TEST(Compare, BadOptionsAreRejected) {
  CompareOptions o;
  o.tol_decades = -0.1;
  EXPECT_THROW(CheckCompareOptions(o), Error);
  o = {};
  o.floor = 0;
  EXPECT_THROW(CheckCompareOptions(o), Error);
  o = {};
  o.metrics = {Metric::kFbAA};
  EXPECT_THROW(CheckCompareOptions(o), Error);
}

}  // namespace
}  // namespace ncp
