// The worked examples of docs/adding_a_solver.md, adding_a_scene.md and
// adding_a_reproduction.md, compiled from the documents themselves (scripts/doc_snippet.py writes
// their code blocks into the build folder) and run: a guide whose code no longer builds or no
// longer does what its text says fails here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "common/error.h"
#include "harness/metrics/evaluator.h"
#include "harness/reproduce/claim_ledger.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/runner.h"
#include "harness/simulate.h"
#include "problems/math/cone.h"
#include "problems/scenarios/rigid/scene.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/common/dual_solver.h"
#include "solvers/common/dual_update.h"
#include "solvers/registry.h"
#include "solvers/settings_table.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {

// Defined by the documents' own files (doc_examples/ramp_cubes.cc, table_example_1.cc).
Scene MakeRampCubes(const std::map<std::string, double>& p, std::uint64_t seed);
Protocol MakeTableExample1();

namespace doc_example {

#include "doc_examples/my_settings.inc"

// The guide leaves the solver to the reader: a projected Jacobi on the dual whose step is
// `omega` over each block's largest diagonal entry and which, with `restart`, goes back to the
// previous λ and halves its step when a step is longer than the one before.
class MySolver : public DualSolver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override {
    settings_ = MySettings::Table().From(s);
    if (!SetupDual(p, warm)) return Status::kFailed;
    u_ = Vec::Zero(dual_.rows());
    previous_ = lambda_;
    omega_ = settings_.omega;
    last_step_ = INFINITY;
    return Status::kRunning;
  }
  Status Iterate() override {
    for (int r = 0; r < dual_.rows(); ++r) u_[r] = dual_.q[r] + RowDot(dual_.W, r, lambda_);
    previous_ = lambda_;
    for (const Constraint& c : *dual_.constraints) {
      const int r = c.row;
      if (c.type == ConstraintType::kContact) {
        const double d = std::max({dual_.diag[r], dual_.diag[r + 1], dual_.diag[r + 2]});
        const double x[3] = {lambda_[r] - omega_ / d * u_[r],
                             lambda_[r + 1] - omega_ / d * u_[r + 1],
                             lambda_[r + 2] - omega_ / d * u_[r + 2]};
        ProjectStrict(c.mu, x, &lambda_[r]);
      } else {
        const double x = lambda_[r] - omega_ / dual_.diag[r] * u_[r];
        lambda_[r] = c.type == ConstraintType::kUnilateral ? std::max(x, 0.0) : x;
      }
    }
    const double step = (lambda_ - previous_).norm();
    if (settings_.restart && step > last_step_) {
      lambda_ = previous_;
      omega_ *= 0.5;
    }
    last_step_ = step;
    return CheckFinite();
  }

 private:
  MySettings settings_;
  Vec u_, previous_;
  double omega_ = 0.0, last_step_ = 0.0;
};

#include "doc_examples/my_entry.inc"

}  // namespace doc_example

namespace {

using ::testing::HasSubstr;

std::string DocExamples() { return NCPBENCH_DOC_EXAMPLES_DIR; }

TEST(DocExamples, SolverSettingsDeclaredOnceReadBackAndRun) {
  const SolverEntry e = doc_example::MyEntry();
  ASSERT_EQ(e.settings.size(), 2u);
  EXPECT_EQ(e.settings[0].name, "omega");
  EXPECT_EQ(e.settings[0].default_value, 0.3);  // the member's initializer
  EXPECT_EQ(e.settings[1].default_value, 1.0);
  const auto back = e.read_back(Settings::Parse("my", e.settings, {{"omega", "0.7"}}));
  EXPECT_EQ(back.at("omega"), 0.7);
  EXPECT_EQ(back.at("restart"), 1.0);
  // The range the table declares, (0, 2], is enforced by parsing.
  EXPECT_THROW(Settings::Parse("my", e.settings, {{"omega", "0"}}), Error);

  // The solver the entry makes runs under the harness like a built-in (2 manufactured problems
  // with known solutions): the residual falls by at least three decades in 300 iterations.
  const auto problems =
      FindScenario("random").generate({{"contacts", "12"}, {"bodies", "20"}}, 2, 3);
  RunOptions opt;
  opt.budget.iters = 300;
  opt.trace_every = 300;
  for (const ContactProblem& q : problems) {
    const RunRecord r =
        RunOne(q, Evaluator(q), {&e, Settings::Parse("my", e.settings, {})}, opt, nullptr, 0);
    ASSERT_FALSE(r.trace.empty());
    const double first = r.trace.front().metrics[Metric::kRes004];
    const double last = r.final_metrics[Metric::kRes004];
    EXPECT_TRUE(std::isfinite(last));
    EXPECT_LT(last, 1e-3 * first) << "res004 " << first << " -> " << last;
  }
}

// The scene entry as the guide writes it in Scenes(), here on its own.
const SceneEntry kRampCubes =
#include "doc_examples/ramp_cubes_entry.inc"
    ;

// Mean displacement of the cubes over `steps` steps of 1/240 s, started at rest.
double MeanSlide(double mu, int steps) {
  SimulateOptions so;
  so.quiet = true;
  so.reference_solvers.clear();
  auto run = [&](int n) {
    so.steps = n;
    return Simulate(kRampCubes, {{"cubes", "3"}, {"mu", std::to_string(mu)}}, 1, so).final_poses;
  };
  const auto start = run(1), end = run(steps);
  EXPECT_EQ(start.size(), end.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < end.size(); ++i)
    sum += (end[i].translation() - start[i].translation()).norm();
  return end.empty() ? 0.0 : sum / static_cast<double>(end.size());
}

TEST(DocExamples, RampCubesSlideBelowTanInclineAndStayAbove) {
  EXPECT_EQ(kRampCubes.name, "ramp_cubes");
  EXPECT_EQ(kRampCubes.defaults().at("incline_deg"), 20.0);
  // tan 20° = 0.364. At μ = 0.1 the cubes accelerate at g (sin 20° − 0.1 cos 20°) = 2.43 m/s²:
  // about 0.29 m in 119 steps (0.5 s); at μ = 0.6 they stay put.
  const double slide = MeanSlide(0.1, 120), stay = MeanSlide(0.6, 120);
  EXPECT_GT(slide, 0.15) << "mean slide at mu = 0.1";
  EXPECT_LT(slide, 0.45) << "mean slide at mu = 0.1";
  EXPECT_LT(stay, 5e-3) << "mean slide at mu = 0.6";
  // An unknown key is refused before the builder runs, as the guide says.
  EXPECT_THROW(SceneParams(kRampCubes, {{"incline", "10"}}), Error);
}

class DocReproduction : public testing::TempDirTest {
 protected:
  DocReproduction() : TempDirTest("ncpbench_doc_reproduction") {}
};

TEST_F(DocReproduction, ExampleProtocolMeasuresWritesAndReports) {
  const Protocol p = MakeTableExample1();
  ASSERT_TRUE(p.runs());
  ReproduceOptions o;
  o.cases = 2;
  o.quiet = true;
  o.out_dir = dir_.string();
  ProtocolRecords measured(p.id);
  o.records = &measured;
  p.measure(o, measured);
  measured.set_options(o);
  ASSERT_EQ(measured.Part("random", "pgs").size(), 2u);
  const std::string h5 = Path("example-table1.h5");
  measured.Write(h5, {});
  // The report is rendered from what the file holds, against the guide's published table.
  const ProtocolRecords records = ProtocolRecords::Read(h5);
  const PublishedTable paper = ReadPublishedFile(DocExamples() + "/example-table1.csv");
  EXPECT_EQ(paper.Get("res004", "apgd"), 1e-5);
  ClaimLedger ledger(p, records.options());
  const std::string md = p.report({records, paper, dir_.string(), ledger});
  EXPECT_THAT(md, HasSubstr("| pgs | "));
  EXPECT_THAT(md, HasSubstr("| apgd | "));
  EXPECT_THAT(md, HasSubstr(" | 1.00e-06 |"));  // pgs' published value
  EXPECT_EQ(md.find("nan"), std::string::npos) << md;
}

}  // namespace
}  // namespace ncp
