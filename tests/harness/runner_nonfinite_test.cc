// No results row carries a non-finite metric under a status other than diverged, failed or
// not-applicable: every registered solver on problems scaled by 1e±150, where residuals
// overflow or underflow double.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "harness/metrics/evaluator.h"
#include "harness/runner.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

ContactProblem Scaled(double s) {
  ContactProblem p = MakeManufacturedProblem(testing::ContactsOnlyOptions(5, 12, 8), "scaled");
  p.A *= s;  // masses and forces scaled together: v unchanged, λ and the dual residuals by s
  p.b *= s;
  p.e *= 1.0 / s;  // and the constraint offsets the other way
  p.reference.reset();
  p.structure = {};
  return p;
}

TEST(RunnerNonFinite, ScaledProblemsNeverGiveNaNUnderARunningStatus) {
  int rows = 0, diverged = 0;
  for (double s : {1e150, 1e-150}) {
    const ContactProblem p = Scaled(s);
    const Evaluator ev(p);
    for (const SolverEntry& e : Solvers()) {
      if (e.name == "subadmm-gpu") continue;  // needs a device
      RunOptions opt;
      opt.budget.iters = 20;
      opt.budget.time_ms = 300;  // Siconos' PROX spends seconds per chunk at 1e-150
      opt.threads = 1;
      const RunRecord r =
          RunOne(p, ev, SolverJob{&e, Settings::Parse(e.name, e.settings, {})}, opt, nullptr, 0);
      ++rows;
      if (r.status == Outcome::kDiverged || r.status == Outcome::kFailed ||
          r.status == Outcome::kNotApplicable) {
        diverged += r.status == Outcome::kDiverged;
        continue;
      }
      for (std::size_t k = 0; k < kNumMetrics; ++k) {
        if (static_cast<Metric>(k) == Metric::kFbAA) continue;  // +inf at an exact solution
        EXPECT_TRUE(std::isfinite(r.final_metrics[static_cast<Metric>(k)]))
            << e.name << " scale " << s << ": " << kMetricNames[k] << " = "
            << r.final_metrics[static_cast<Metric>(k)] << " under status " << ToString(r.status);
      }
    }
  }
  std::printf("%d rows, %d diverged\n", rows, diverged);
}

// λ and v double every iteration: finite for a thousand iterations, yet a blow-up.
class Doubling : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings&, const WarmStart*) override {
    v_ = Vec::Zero(p.num_dofs());
    lam_ = Vec::Zero(p.num_rows());
    return Status::kRunning;
  }
  Status Iterate() override {
    scale_ *= 2.0;
    v_.setConstant(scale_);
    lam_.setConstant(scale_);
    return Status::kRunning;
  }
  void Current(Vec& v, Vec& lambda) const override { v = v_, lambda = lam_; }

 private:
  Vec v_, lam_;
  double scale_ = 1e-3;
};

TEST(RunnerNonFinite, FiniteButGrowingPastTheBoundIsDiverged) {
  const ContactProblem p = MakeManufacturedProblem(testing::ContactsOnlyOptions(5, 12, 8), "grow");
  const Evaluator ev(p);
  SolverEntry e;
  e.name = "doubling";
  e.make = [] { return std::make_unique<Doubling>(); };
  for (int trace : {0, 5}) {
    RunOptions opt;
    opt.budget.iters = 200;  // 2^200 · 1e-3 is finite: only the growth bound can stop it
    opt.trace_every = trace;
    const RunRecord r =
        RunOne(p, ev, SolverJob{&e, Settings::Parse("doubling", {}, {})}, opt, nullptr, 0);
    EXPECT_EQ(r.status, Outcome::kDiverged) << "trace " << trace << ": " << r.message;
    EXPECT_NE(r.message.find("res004 grew from"), std::string::npos) << r.message;
    // With a trace it stops at the first point past the bound, long before the budget.
    if (trace > 0) {
      EXPECT_LT(r.iterations, 60) << r.message;
    }
  }
  // A solver that converges is never caught by the bound (its residual falls).
  RunOptions opt;
  opt.budget.iters = 200;
  opt.trace_every = 5;
  const SolverEntry& pgs = FindSolver("pgs");
  const RunRecord ok =
      RunOne(p, ev, SolverJob{&pgs, Settings::Parse("pgs", pgs.settings, {})}, opt, nullptr, 0);
  EXPECT_NE(ok.status, Outcome::kDiverged) << ok.message;
}

}  // namespace
}  // namespace ncp
