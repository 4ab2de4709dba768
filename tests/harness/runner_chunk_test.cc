// Chunks of iterations (Solver::IterateChunk): the runner hands k > 1 only where no trace
// point, tolerance check or budget falls inside, so a chunking solver gives the same rows as
// one called an iteration at a time. A real solver (pgs) is wrapped in a solver that allows
// chunks and records the chunk sizes it was given.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "harness/runner.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

class Chunked : public Solver {
 public:
  Chunked(std::unique_ptr<Solver> inner, int most, std::vector<int>* chunks, int diverge_at = -1)
      : inner_(std::move(inner)), most_(most), chunks_(chunks), diverge_at_(diverge_at) {}
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* w) override {
    return inner_->Setup(p, s, w);
  }
  Status Iterate() override {
    chunks_->push_back(1);
    return Step();
  }
  Status IterateChunk(int k, int& done) override {
    chunks_->push_back(k);
    Status st = Status::kRunning;
    for (done = 0; done < k && st == Status::kRunning; ++done) st = Step();
    return st;
  }
  int MaxChunk() const override { return most_; }
  void Current(Vec& v, Vec& l) const override { inner_->Current(v, l); }

 private:
  Status Step() {
    if (++count_ == diverge_at_) return Status::kDiverged;
    return inner_->Iterate();
  }
  std::unique_ptr<Solver> inner_;
  int most_, count_ = 0;
  std::vector<int>* chunks_;
  int diverge_at_;
};

struct Wrapped {
  SolverEntry entry;
  std::vector<int> chunks;
  SolverJob Job() { return {&entry, Settings::Parse("pgs", entry.settings, {})}; }
};

std::unique_ptr<Wrapped> Wrap(int most, int diverge_at = -1) {
  auto w = std::make_unique<Wrapped>();
  w->entry = FindSolver("pgs");
  w->entry.name = "pgs-chunked";
  std::vector<int>* chunks = &w->chunks;
  const SolverEntry& pgs = FindSolver("pgs");
  w->entry.make = [&pgs, most, chunks, diverge_at] {
    return std::make_unique<Chunked>(pgs.make(), most, chunks, diverge_at);
  };
  return w;
}

SolverJob Pgs() {
  const SolverEntry& e = FindSolver("pgs");
  return {&e, Settings::Parse("pgs", e.settings, {})};
}

void ExpectSameRow(const RunRecord& a, const RunRecord& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.iterations, b.iterations);
  for (std::size_t m = 0; m < kNumMetrics; ++m)
    EXPECT_EQ(a.final_metrics[static_cast<Metric>(m)], b.final_metrics[static_cast<Metric>(m)])
        << m;
  ASSERT_EQ(a.trace.size(), b.trace.size());
  for (std::size_t t = 0; t < a.trace.size(); ++t) {
    EXPECT_EQ(a.trace[t].iteration, b.trace[t].iteration);
    EXPECT_EQ(a.trace[t].metrics[Metric::kRes004], b.trace[t].metrics[Metric::kRes004]);
  }
}

TEST(RunnerChunks, ChunksEndAtTracePointsAndTheBudget) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "c");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 23;
  opt.trace_every = 5;
  auto w = Wrap(1000);
  const RunRecord chunked = RunOne(p, ev, w->Job(), opt, nullptr, 0);
  EXPECT_EQ(w->chunks, (std::vector<int>{5, 5, 5, 5, 3}));
  ExpectSameRow(chunked, RunOne(p, ev, Pgs(), opt, nullptr, 0));
  // Without a trace, the whole budget is one chunk, up to the solver's own bound.
  opt.trace_every = 0;
  w = Wrap(10);
  ExpectSameRow(RunOne(p, ev, w->Job(), opt, nullptr, 0), RunOne(p, ev, Pgs(), opt, nullptr, 0));
  EXPECT_EQ(w->chunks, (std::vector<int>{10, 10, 3}));
}

TEST(RunnerChunks, ToleranceChecksSplitTheChunks) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(32), "t");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 100000;
  opt.budget.tol = 1e-6;
  opt.tol_every = 10;
  auto w = Wrap(1000);
  const RunRecord chunked = RunOne(p, ev, w->Job(), opt, nullptr, 0);
  ExpectSameRow(chunked, RunOne(p, ev, Pgs(), opt, nullptr, 0));
  EXPECT_EQ(chunked.status, Outcome::kConverged);
  for (int k : w->chunks) EXPECT_EQ(k, 10);
  EXPECT_EQ(static_cast<int>(w->chunks.size()) * 10, chunked.iterations);
}

TEST(RunnerChunks, ASolverThatStopsInsideAChunkCountsItsIterations) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(33), "d");
  RunOptions opt;
  opt.budget.iters = 50;
  auto w = Wrap(1000, 7);
  const RunRecord r = RunOne(p, Evaluator(p), w->Job(), opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kDiverged);
  EXPECT_EQ(r.iterations, 7);
  EXPECT_EQ(w->chunks, (std::vector<int>{50}));
}

TEST(RunnerChunks, ATimeBudgetStartsWithOneIteration) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(34), "b");
  RunOptions opt;
  opt.budget.iters = 1000000;
  opt.budget.time_ms = 30;
  auto w = Wrap(1 << 20);
  const RunRecord r = RunOne(p, Evaluator(p), w->Job(), opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kTimeLimit);
  ASSERT_FALSE(w->chunks.empty());
  EXPECT_EQ(w->chunks.front(), 1);
  // Chunks are sized to about half the time left: the budget is overshot by little.
  EXPECT_LT(r.total_time_s, 0.030 * 3);
}

}  // namespace
}  // namespace ncp
