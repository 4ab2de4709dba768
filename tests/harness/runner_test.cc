// The benchmark loop: budgets, warm starts and traces.
#include <gtest/gtest.h>

#include <memory>

#include "common/error.h"
#include "harness/results_store.h"
#include "harness/run_options.h"
#include "harness/runner.h"
#include "problems/io/dataset_hdf5.h"
#include "tests/cli_support.h"
#include "solvers/registry.h"
#include "tests/run_support.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

using testing::Job;

TEST(Runner, WarmStartFromReferenceStartsAtTheSolution) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(21), "w");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 1;
  const WarmStart ws{p.reference->v, p.reference->lambda};
  for (const char* s : {"pgs", "pj", "apgd", "admm-full"}) {
    const RunRecord cold = RunOne(p, ev, Job(s), opt, nullptr, 0);
    const RunRecord warm = RunOne(p, ev, Job(s), opt, &ws, 0);
    EXPECT_LT(warm.final_metrics[Metric::kRes004], 1e-9) << s;
    EXPECT_GT(cold.final_metrics[Metric::kRes004], 1e-4) << s;
  }
}

// A frame without constraints (a body in free flight) is a valid problem: every solver that
// takes global problems ends it without failing, at res004 0 (λ is empty; v is judged by the
// dynamics metrics). pgs, pj, apgd, local-newton and sp failed on it: CHOLMOD refused the
// solve A⁻¹Jᵀ of 0 columns.
TEST(Runner, EverySolverEndsAProblemWithoutConstraints) {
  ManufacturedOptions o = testing::AcceptanceOptions(23);
  o.num_bodies = 4, o.num_contacts = o.num_unilateral = o.num_bilateral = o.num_soft = 0;
  const ContactProblem p = MakeManufacturedProblem(o, "free");
  ASSERT_EQ(p.num_rows(), 0);
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 5;
  int ran = 0;
  for (const SolverEntry& e : Solvers()) {
    if (e.name.rfind("test-", 0) == 0) continue;  // the tests' own stand-ins
    const RunRecord r = RunOne(p, ev, Job(e.name.c_str()), opt, nullptr, 0);
    if (r.status == Outcome::kNotApplicable) continue;
    ++ran;
    EXPECT_TRUE(RanToEnd(r.status)) << e.name << ": " << ToString(r.status) << " " << r.message;
    EXPECT_EQ(r.final_metrics[Metric::kRes004], 0.0) << e.name;
    // No constraint, no error: fb_aa at its 16-digit floor (it read 0 digits, a failed solve's
    // score), and λ = λ* (both empty) is an error of 0 against the stored reference (it was −1,
    // "no reference").
    EXPECT_EQ(r.final_metrics[Metric::kFbAA], 16.0) << e.name;
    EXPECT_EQ(r.lambda_err, 0.0) << e.name;
  }
  EXPECT_GE(ran, 10);
}

// An iteration that would never end on its own (as a Newton solve on a large frame can take
// seconds): the deadline the runner hands the solver lets it stop inside the iteration.
class SpinsUntilTheDeadline : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings&, const WarmStart*) override {
    v_ = Vec::Zero(p.num_dofs()), lam_ = Vec::Zero(p.num_rows());
    return Status::kRunning;
  }
  Status Iterate() override {
    while (!PastDeadline()) {
    }
    return Status::kRunning;
  }
  void Current(Vec& v, Vec& lambda) const override { v = v_, lambda = lam_; }

 private:
  Vec v_, lam_;
};

// λ* = 0 (every contact separating) has no relative error: lambda_err is 0 when λ is zero too,
// and 1 when it is not (it read ‖λ‖/1e-300, 1e282 for rounding-level multipliers).
TEST(Runner, LambdaErrorAgainstAZeroReferenceIsZeroOrOne) {
  ContactProblem p = testing::OnlyType(ConstraintType::kContact);
  RunOptions opt;
  opt.budget.iters = 20;
  // Pushed by nothing and separating at 1 m/s: λ* = 0, v* = 0; PGS's projections give 0.
  ContactProblem apart = p;
  apart.b.setZero();
  apart.e.setZero();
  for (const Constraint& c : apart.constraints) apart.e[c.row] = 1.0;
  apart.reference = Reference{Vec::Zero(p.num_dofs()), Vec::Zero(p.num_rows()), "separating", 0.0};
  const RunRecord zero = RunOne(apart, Evaluator(apart), Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(zero.lambda_err, 0.0);
  // The pushed problem judged against a zero λ*: no digit right.
  p.reference->lambda.setZero();
  const RunRecord wrong = RunOne(p, Evaluator(p), Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(wrong.lambda_err, 1.0);
}

TEST(Runner, TimeBudgetReachesInsideALongIteration) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(23), "d");
  SolverEntry e;
  e.name = "spin";
  e.make = [] { return std::make_unique<SpinsUntilTheDeadline>(); };
  RunOptions opt;
  opt.budget.iters = 1000;
  opt.budget.time_ms = 50;
  const RunRecord r =
      RunOne(p, Evaluator(p), SolverJob{&e, Settings::Parse("spin", {}, {})}, opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kTimeLimit);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_GE(r.total_time_s, 0.050);
  EXPECT_LT(r.total_time_s, 5.0);  // bounded by the budget, not by the spin
}

TEST(Runner, BudgetsStopWithTheirStatus) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(22), "b");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 7;
  RunRecord r = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kMaxIterations);
  EXPECT_EQ(r.iterations, 7);
  opt.budget.iters = 100000;
  opt.budget.tol = 1e-6;
  r = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kConverged);
  EXPECT_LE(r.final_metrics[Metric::kRes004], 1e-6);
  opt.budget.tol = 0;
  opt.budget.time_ms = 5;
  r = RunOne(p, ev, Job("apgd"), opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kTimeLimit);
  EXPECT_GE(r.total_time_s, 0.005);
}

TEST(Runner, ToleranceTestedEveryKIterationsStopsOnAMultipleOfK) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(22), "k");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 100000;
  opt.budget.tol = 1e-6;
  const RunRecord every = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  // A test without a trace point computes res004 alone, one at a trace point every metric: the
  // same stop either way.
  opt.trace_every = 1;
  const RunRecord traced = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(traced.iterations, every.iterations);
  EXPECT_EQ(traced.final_metrics[Metric::kRes004], every.final_metrics[Metric::kRes004]);
  opt.trace_every = 0;
  opt.tol_every = 10;
  const RunRecord tenth = RunOne(p, ev, Job("pgs"), opt, nullptr, 0);
  EXPECT_EQ(tenth.status, Outcome::kConverged);
  EXPECT_EQ(tenth.iterations % 10, 0);
  // The first multiple of 10 at or after the iteration the every-iteration test stopped at.
  EXPECT_EQ(tenth.iterations, (every.iterations + 9) / 10 * 10);
  EXPECT_LE(tenth.final_metrics[Metric::kRes004], 1e-6);
}

// --step-tol (002's residual): the run stops at the first iteration whose velocity moved at most
// τ relative to itself since the previous one, found here by driving the solver directly; the
// re-timed run keeps that count; τ = 0 leaves the budget alone; a bad τ is refused.
TEST(Runner, StepToleranceStopsAtTheFirstSmallVelocityStep) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(22), "s");
  const Evaluator ev(p);
  const double tau = 1e-4;
  for (const char* name : {"pgs", "apgd", "cond"}) {
    const SolverJob job = Job(name);
    const std::unique_ptr<Solver> s = job.entry->make();
    ASSERT_EQ(s->Setup(p, job.settings, nullptr), Status::kRunning) << name;
    Vec v, lam, prev;
    s->Current(prev, lam);
    int expected = -1;
    for (int k = 1; k <= 5000 && expected < 0; ++k) {
      ASSERT_EQ(s->Iterate(), Status::kRunning) << name;
      s->Current(v, lam);
      if ((v - prev).norm() <= tau * v.norm()) expected = k;
      prev = v;
    }
    ASSERT_GT(expected, 1) << name << ": the threshold should need a few iterations";
    RunOptions opt;
    opt.budget.iters = 5000;
    opt.budget.step_tol = tau;
    const RunRecord r = RunOne(p, ev, job, opt, nullptr, 0);
    EXPECT_EQ(r.status, Outcome::kConverged) << name;
    EXPECT_EQ(r.iterations, expected) << name;
    EXPECT_NE(r.budget.find("step_tol=0.0001"), std::string::npos) << r.budget;
    opt.retime_without_tol = true;
    EXPECT_EQ(RunOne(p, ev, job, opt, nullptr, 0).iterations, expected) << name;
  }
  RunOptions none;
  none.budget.iters = 7;
  const RunRecord r = RunOne(p, ev, Job("pgs"), none, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kMaxIterations);
  EXPECT_EQ(r.budget.find("step_tol"), std::string::npos);
  RunArgs bad;
  bad.step_tol = -1;
  EXPECT_THROW(MakeRunOptions(bad), Error);
  bad.step_tol = 1;
  EXPECT_THROW(MakeRunOptions(bad), Error);
}

TEST(Runner, TraceEveryKIterationsEndsAtTheFinalIterate) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(23), "t");
  RunOptions opt;
  opt.budget.iters = 23;
  opt.trace_every = 5;
  const RunRecord r = RunOne(p, Evaluator(p), Job("pgs"), opt, nullptr, 0);
  std::vector<int> its;
  for (const TracePoint& t : r.trace) its.push_back(t.iteration);
  EXPECT_EQ(its, (std::vector<int>{0, 5, 10, 15, 20, 23}));
  for (std::size_t k = 1; k < r.trace.size(); ++k)
    EXPECT_GE(r.trace[k].time_s, r.trace[k - 1].time_s);
  EXPECT_EQ(r.trace.back().metrics[Metric::kRes004], r.final_metrics[Metric::kRes004]);
}

TEST(Runner, WarmStartFromPreviousProblem) {
  // Two copies of one problem: warm-started from the first solution, the second needs ~nothing.
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(24), "a");
  ContactProblem q = p;
  q.meta.name = "b";
  const auto dir = testing::FreshDir("warm_previous");
  const std::string data = (dir / "twins.h5").string();
  WriteDataset(data, {p, q});
  const DatasetInput d = LoadValidated(data);
  RunOptions opt;
  opt.budget.iters = 5000;
  opt.budget.tol = 1e-9;
  opt.warm = WarmMode::kPrevious;
  const std::string out = (dir / "r.h5").string();
  RunAll({d}, {Job("pgs")}, opt, out, true);
  const auto rows = ReadResults(out);
  ASSERT_EQ(rows.size(), 2u);
  const RunRecord& first = rows[0].problem == "a" ? rows[0] : rows[1];
  const RunRecord& second = rows[0].problem == "a" ? rows[1] : rows[0];
  EXPECT_GT(first.iterations, 50);
  EXPECT_LE(second.iterations, 2);
  EXPECT_EQ(second.warm_start, "previous");
}

}  // namespace
}  // namespace ncp
