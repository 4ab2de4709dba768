// The solvers' own statistics (Solver::Stats()) recorded at every trace point and stored as
// stat_* trace columns: present for the solvers that report them, monotone where they count,
// round-tripped by the results store, absent for solvers without them and for older files.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/results_store.h"
#include "harness/runner.h"
#include "tests/cli_support.h"
#include "tests/run_support.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

using testing::Job;

RunRecord Traced(const ContactProblem& p, const char* solver, int iters, int every) {
  RunOptions opt;
  opt.budget.iters = iters;
  opt.threads = 1;
  opt.trace_every = every;
  RunRecord r = RunOne(p, Evaluator(p), Job(solver), opt, nullptr, 0);
  r.job_key = solver;
  return r;
}

bool Same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// Counts never decrease along a trace (cumulative from setup).
void ExpectNonDecreasing(const RunRecord& r, int SolverStats::*count, const char* name) {
  for (std::size_t k = 1; k < r.trace.size(); ++k)
    EXPECT_GE(r.trace[k].stats.*count, r.trace[k - 1].stats.*count)
        << r.solver << " " << name << " at iteration " << r.trace[k].iteration;
}

// The first point after an iteration (iteration 0 has no residual yet).
const TracePoint& FirstIterated(const RunRecord& r) {
  for (const TracePoint& t : r.trace)
    if (t.iteration > 0) return t;
  return r.trace.back();
}

TEST(SolverStats, AdmmFullReportsResidualsPenaltyAndRefactorizationsAtEveryPoint) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "stats");
  const RunRecord r = Traced(p, "admm-full", 300, 10);
  ASSERT_EQ(r.status, Outcome::kMaxIterations) << r.message;
  ASSERT_EQ(r.trace.size(), 31u);
  for (const TracePoint& t : r.trace) {
    SCOPED_TRACE(t.iteration);
    EXPECT_GE(t.stats.refactorizations, 1);  // setup factorizes
    EXPECT_GT(t.stats.penalty, 0.0);
    EXPECT_EQ(t.stats.inner_iterations, -1);
    EXPECT_EQ(t.stats.line_search_steps, -1);
    if (t.iteration == 0) {
      EXPECT_TRUE(std::isnan(t.stats.primal_residual));
      EXPECT_TRUE(std::isnan(t.stats.dual_residual));
    } else {
      EXPECT_TRUE(std::isfinite(t.stats.primal_residual));
      EXPECT_TRUE(std::isfinite(t.stats.dual_residual));
    }
  }
  ExpectNonDecreasing(r, &SolverStats::refactorizations, "refactorizations");
  // It solves this problem: its own primal residual falls with the evaluator's metrics.
  EXPECT_LT(r.trace.back().metrics[Metric::kRes004], 1e-6);
  EXPECT_LT(r.trace.back().stats.primal_residual, FirstIterated(r).stats.primal_residual / 10);
}

// subadmm: θ_p, θ_d of 004:42 and the geometric mean of the subsystems' β at every point.
TEST(SolverStats, SubAdmmReportsItsResidualsAndPenalty) {
  ManufacturedOptions o = testing::AcceptanceOptions(32);
  o.bodies_per_subsystem = 3;
  const ContactProblem p = MakeManufacturedProblem(o, "stats-sub");
  const RunRecord r = Traced(p, "subadmm", 300, 10);
  ASSERT_NE(r.status, Outcome::kFailed) << r.message;
  ASSERT_NE(r.status, Outcome::kNotApplicable) << r.message;
  for (const TracePoint& t : r.trace) {
    SCOPED_TRACE(t.iteration);
    EXPECT_GE(t.stats.refactorizations, 1);
    EXPECT_GT(t.stats.penalty, 0.0);
    EXPECT_EQ(t.iteration == 0, std::isnan(t.stats.primal_residual));
  }
  ExpectNonDecreasing(r, &SolverStats::refactorizations, "refactorizations");
  EXPECT_LT(r.trace.back().stats.primal_residual, FirstIterated(r).stats.primal_residual / 10);
}

TEST(SolverStats, CanalReportsNewtonStepsFactorizationsLineSearchAndPenalty) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(32), "stats");
  const RunRecord r = Traced(p, "canal", 12, 1);
  ASSERT_TRUE(r.status == Outcome::kMaxIterations) << ToString(r.status) << " " << r.message;
  ASSERT_GE(r.trace.size(), 2u);
  for (const TracePoint& t : r.trace) {
    SCOPED_TRACE(t.iteration);
    EXPECT_GE(t.stats.inner_iterations, 0);
    EXPECT_GE(t.stats.refactorizations, 0);
    EXPECT_GE(t.stats.line_search_steps, 0);
    EXPECT_GT(t.stats.penalty, 0.0);
    EXPECT_EQ(std::isfinite(t.stats.primal_residual), t.iteration > 0);
    EXPECT_EQ(std::isfinite(t.stats.dual_residual), t.iteration > 0);
  }
  ExpectNonDecreasing(r, &SolverStats::inner_iterations, "inner_iterations");
  ExpectNonDecreasing(r, &SolverStats::refactorizations, "refactorizations");
  ExpectNonDecreasing(r, &SolverStats::line_search_steps, "line_search_steps");
  const SolverStats& last = r.trace.back().stats;
  EXPECT_GT(last.inner_iterations, 0);
  // Every Newton step factorizes once and line-searches with at least two evaluations.
  EXPECT_GE(last.refactorizations, last.inner_iterations);
  EXPECT_GE(last.line_search_steps, 2 * last.inner_iterations);
}

TEST(SolverStats, OtherSolversReportWhatTheyHave) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(33), "stats");
  {
    const RunRecord r = Traced(p, "nnewton", 5, 1);
    const SolverStats& s = r.trace.back().stats;
    EXPECT_TRUE(std::isfinite(s.primal_residual));
    EXPECT_TRUE(std::isfinite(s.dual_residual));
    EXPECT_TRUE(std::isnan(s.penalty));
    EXPECT_EQ(s.refactorizations, 5);
    EXPECT_GE(s.line_search_steps, 5);
    ExpectNonDecreasing(r, &SolverStats::line_search_steps, "line_search_steps");
  }
  {
    const RunRecord r = Traced(p, "al-trdogleg", 3, 1);
    const SolverStats& s = r.trace.back().stats;
    EXPECT_GT(s.inner_iterations, 0);
    EXPECT_GT(s.refactorizations, 0);
    EXPECT_EQ(s.line_search_steps, -1);  // a trust region, no line search
  }
  {
    const RunRecord r = Traced(p, "apgd", 5, 1);
    const SolverStats& s = r.trace.back().stats;
    EXPECT_GE(s.line_search_steps, 5);
    EXPECT_TRUE(std::isnan(s.primal_residual));
    EXPECT_EQ(s.refactorizations, -1);
  }
  {
    // On a local problem the lifted wrapper passes its inner solver's statistics on.
    const ContactProblem local = testing::OneContactLocalProblem();
    const RunRecord r = Traced(local, "admm-full", 5, 1);
    ASSERT_NE(r.status, Outcome::kNotApplicable) << r.message;
    EXPECT_GE(r.trace.back().stats.refactorizations, 1);
    EXPECT_GT(r.trace.back().stats.penalty, 0.0);
  }
  {
    const RunRecord r = Traced(p, "pgs", 5, 1);
    for (const TracePoint& t : r.trace) {
      EXPECT_TRUE(std::isnan(t.stats.primal_residual) && std::isnan(t.stats.dual_residual) &&
                  std::isnan(t.stats.penalty));
      EXPECT_EQ(t.stats.inner_iterations, -1);
      EXPECT_EQ(t.stats.refactorizations, -1);
      EXPECT_EQ(t.stats.line_search_steps, -1);
    }
  }
}

bool HasDataset(const std::string& file, const std::string& object) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return false;
  const bool has = H5Lexists(f, object.c_str(), H5P_DEFAULT) > 0;
  H5Fclose(f);
  return has;
}

TEST(SolverStats, ResultsStoreRoundTripsThemAndWritesNoneForSolversWithout) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(34), "stats");
  const std::vector<RunRecord> rows = {Traced(p, "admm-full", 40, 10), Traced(p, "canal", 4, 1),
                                       Traced(p, "pgs", 20, 5)};
  const fs::path dir = testing::FreshDir("solver_stats_store");
  const std::string file = (dir / "stats.h5").string();
  WriteResults(file, rows, {});
  const std::vector<RunRecord> back = ReadResults(file);
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(rows[i].solver);
    ASSERT_EQ(back[i].trace.size(), rows[i].trace.size());
    for (std::size_t j = 0; j < rows[i].trace.size(); ++j) {
      const SolverStats &a = rows[i].trace[j].stats, &b = back[i].trace[j].stats;
      EXPECT_TRUE(Same(a.primal_residual, b.primal_residual)) << j;
      EXPECT_TRUE(Same(a.dual_residual, b.dual_residual)) << j;
      EXPECT_TRUE(Same(a.penalty, b.penalty)) << j;
      EXPECT_EQ(a.inner_iterations, b.inner_iterations) << j;
      EXPECT_EQ(a.refactorizations, b.refactorizations) << j;
      EXPECT_EQ(a.line_search_steps, b.line_search_steps) << j;
    }
  }
  // Rows are written in order: 0 admm-full, 1 canal, 2 pgs. Only reported fields are columns.
  const char* kAll[] = {"stat_primal_residual",  "stat_dual_residual",    "stat_penalty",
                        "stat_inner_iterations", "stat_refactorizations", "stat_line_search_steps"};
  for (const char* name : kAll) {
    EXPECT_TRUE(HasDataset(file, std::string("/traces/1/") + name)) << name;
    EXPECT_FALSE(HasDataset(file, std::string("/traces/2/") + name)) << name;
  }
  EXPECT_TRUE(HasDataset(file, "/traces/0/stat_refactorizations"));
  EXPECT_TRUE(HasDataset(file, "/traces/0/stat_penalty"));
  EXPECT_FALSE(HasDataset(file, "/traces/0/stat_inner_iterations"));
  EXPECT_FALSE(HasDataset(file, "/traces/0/stat_line_search_steps"));
}

TEST(SolverStats, FilesWrittenBeforeTheColumnsStillRead) {
  // The committed baselines predate the stat_* columns (and store no trace points); a trace
  // without the columns reads as not reported (the pgs row of the round trip above).
  const fs::path dir = fs::path(NCP_SOURCE_DIR) / "results" / "baselines";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " is not there";
  int files = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".h5") continue;
    ++files;
    std::vector<RunRecord> rows;
    ASSERT_NO_THROW(rows = ReadResults(e.path().string())) << e.path();
    EXPECT_FALSE(rows.empty()) << e.path();
    for (const RunRecord& r : rows)
      for (const TracePoint& t : r.trace) {
        EXPECT_TRUE(std::isnan(t.stats.primal_residual));
        EXPECT_EQ(t.stats.refactorizations, -1);
      }
  }
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace ncp
