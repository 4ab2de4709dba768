// Solvers from outside the suite (plug-ins) that misbehave: each fails its own job with a message
// and the run goes on, and nothing they do reaches another job or a row unseen. A `throw 42`
// ended the process, a make() of null crashed it, a solver that changed its settings in Setup
// changed what the next job ran and what the row recorded, a λ of the wrong size read as
// divergence, and a chunk's count of a million iterations of 50 was believed.
#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "common/registry.h"
#include "harness/runner.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

// λ = 0, v = 0 of the problem's sizes unless a hook changes what it does.
struct Hooks {
  std::function<void(const Settings&)> setup;
  std::function<void()> iterate, info;
  int lambda_extra = 0;
  int chunk_done = 0;  // nonzero: IterateChunk reports this many
};

class HookedSolver : public Solver {
 public:
  explicit HookedSolver(const Hooks& h) : h_(h) {}
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart*) override {
    if (h_.setup) h_.setup(s);
    v_ = Vec::Zero(p.num_dofs());
    lambda_ = Vec::Zero(p.num_rows() + h_.lambda_extra);
    return Status::kRunning;
  }
  Status Iterate() override {
    if (h_.iterate) h_.iterate();
    return Status::kRunning;
  }
  int MaxChunk() const override { return h_.chunk_done != 0 ? 8 : 1; }
  Status IterateChunk(int, int& done) override {
    done = h_.chunk_done;
    return Status::kRunning;
  }
  void Current(Vec& v, Vec& lambda) const override { v = v_, lambda = lambda_; }
  std::vector<std::pair<std::string, double>> Info() const override {
    if (h_.info) h_.info();
    return {};
  }

 private:
  Hooks h_;
  Vec v_, lambda_;
};

const SettingSpec kScale{"scale", 1.0, 0.0, 2.0, false, false, false, {}, "a setting"};

SolverEntry Hooked(const Hooks& h) {
  return {"test-hooked", "misbehaves as told", {kScale}, LocalUse::kNone, [h] {
            return std::make_unique<HookedSolver>(h);
          }};
}

RunRecord RunHooked(const SolverEntry& e, const Settings& s) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "m");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 50;
  return RunOne(p, ev, SolverJob{&e, s}, opt, nullptr, 0);
}

RunRecord RunHooked(const Hooks& h) {
  const SolverEntry e = Hooked(h);
  return RunHooked(e, Settings::Parse(e.name, e.settings, {}));
}

void ExpectFailed(const RunRecord& r, const std::string& message) {
  EXPECT_EQ(r.status, Outcome::kFailed) << ToString(r.status);
  EXPECT_EQ(r.message, message);
}

TEST(RunnerMisbehavingSolver, AnExceptionOfAnyTypeFailsTheJob) {
  const std::string non_std = "the solver threw an exception that is not a std::exception";
  ExpectFailed(RunHooked({.setup = [](const Settings&) { throw 42; }}), non_std);
  int calls = 0;
  ExpectFailed(RunHooked({.iterate =
                              [&calls] {
                                if (++calls == 3) throw 42;
                              }}),
               non_std);
  ExpectFailed(RunHooked({.info = [] { throw 42; }}), non_std);
  ExpectFailed(RunHooked({.info = [] { throw std::runtime_error("info failed"); }}), "info failed");
}

TEST(RunnerMisbehavingSolver, AFactoryThatMakesNothingOrThrowsFailsTheJob) {
  const SolverEntry null{
      "test-null", "", {}, LocalUse::kNone, [] { return std::unique_ptr<Solver>(); }};
  ExpectFailed(RunHooked(null, Settings::Parse(null.name, null.settings, {})),
               "the solver entry's make() returned no solver");
  const SolverEntry throws{
      "test-throws", "", {}, LocalUse::kNone, []() -> std::unique_ptr<Solver> { throw 42; }};
  ExpectFailed(RunHooked(throws, Settings::Parse(throws.name, throws.settings, {})),
               "the solver threw an exception that is not a std::exception");
}

TEST(RunnerMisbehavingSolver, SettingsChangedInSetupStayWithThatJob) {
  const SolverEntry e = Hooked({.setup = [](const Settings& s) {
    const_cast<Settings&>(s) = Settings::Parse("test-hooked", {kScale}, {{"scale", "0.25"}});
  }});
  // One job run twice, as a run does for the problems of a dataset.
  const SolverJob job{&e, Settings::Parse(e.name, e.settings, {})};
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "m");
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 5;
  const RunRecord first = RunOne(p, ev, job, opt, nullptr, 0);
  const RunRecord second = RunOne(p, ev, job, opt, nullptr, 0);
  EXPECT_EQ(job.settings.Get("scale"), 1.0);
  EXPECT_EQ(first.settings, "scale=1");
  EXPECT_EQ(second.settings, "scale=1");
}

TEST(RunnerMisbehavingSolver, AnIterateOfTheWrongSizeOrAChunkCountPastTheAskFailsTheJob) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "m");
  ExpectFailed(RunHooked({.lambda_extra = -3}),
               fmt::format("the solver's lambda has {} entries; the problem has {} rows",
                           p.num_rows() - 3, p.num_rows()));
  const RunRecord chunk = RunHooked({.chunk_done = 1000000});
  ExpectFailed(chunk, "IterateChunk(8) reported 1000000 iterations done: must be 0 to 8");
  EXPECT_EQ(chunk.iterations, 1);
  ExpectFailed(RunHooked({.chunk_done = -5}),
               "IterateChunk(8) reported -5 iterations done: must be 0 to 8");
}

TEST(RunnerMisbehavingSolver, NothingRegistersWhileAJobRuns) {
  const RunRecord r = RunHooked({.setup = [](const Settings&) {
    RegisterSolver(
        {"test-late", "", {}, LocalUse::kNone, [] { return std::unique_ptr<Solver>(); }});
  }});
  ExpectFailed(r,
               "solver 'test-late': registered while jobs run: register when the plug-in is "
               "loaded");
  EXPECT_EQ(FindOrNull(Solvers(), "test-late"), nullptr);
}

}  // namespace
}  // namespace ncp
