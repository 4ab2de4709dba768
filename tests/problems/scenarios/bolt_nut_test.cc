// bolt_nut: the nut mesh against the bolt's field, and the generated single-step cases.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "harness/runner.h"
#include "problems/model/validate.h"
#include "problems/physics/geometry.h"
#include "problems/physics/sdf/nut_mesh.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

// Aligned on the helix, every thread vertex lies outside the bolt by at most the clearance (the
// crest/root flats by exactly it, the 60° flanks by half of it).
TEST(NutMesh, ThreadFollowsTheBoltAtTheClearance) {
  const physics::ThreadSdf bolt = physics::ThreadSdf::M48x5(0.2);
  physics::NutOptions o;
  o.clearance = 1e-4;
  const physics::NutMesh nut = physics::MakeNut(bolt, o);
  std::printf("nut: %zu triangles (%d thread), volume %.4e m^3\n", nut.mesh.triangles.size(),
              nut.thread_triangles, nut.volume);
  EXPECT_GE(nut.mesh.triangles.size(), 1000u);
  EXPECT_LE(nut.mesh.triangles.size(), 5000u);
  physics::Pose T = physics::Pose::Identity();
  T.translation().z() = 0.05;  // a whole number of pitches: the helix phases match
  double lo = 1e300, hi = -1e300;
  for (int t = 0; t < nut.thread_triangles; ++t)
    for (int c = 0; c < 3; ++c) {
      const double d = bolt.Eval(T * nut.mesh.vertices[nut.mesh.triangles[t][c]], nullptr);
      lo = std::min(lo, d), hi = std::max(hi, d);
    }
  EXPECT_GE(lo, 0.5e-4 - 1e-9);
  EXPECT_LE(hi, 1e-4 + 1e-9);
  // ISO 4032 M48 steel nut: about 0.97 kg (hexagon 75 mm across flats, 38 mm high).
  EXPECT_NEAR(7850.0 * nut.volume, 0.97, 0.05);
  EXPECT_THROW(physics::MakeNut(bolt, {0.038, 0.075, -1.0, 32}), Error);
}

TEST(BoltNut, CasesHaveManyClusteredContactsAndAreValid) {
  const std::vector<ContactProblem> cases =
      FindScenario("bolt_nut").generate({{"configurations", "2"}, {"wrenches", "2"}}, 4, 3);
  ASSERT_EQ(cases.size(), 4u);
  for (const ContactProblem& p : cases) {
    EXPECT_EQ(Validate(p), "") << p.meta.name;
    std::printf("%s: %d contacts from %.0f candidates\n", p.meta.name.c_str(), p.num_contacts(),
                p.meta.params.at("candidates"));
    EXPECT_GE(p.num_contacts(), 60);
    EXPECT_LE(p.num_contacts(), 120);
    EXPECT_GT(p.meta.params.at("candidates"), 120.0);  // the k-means step ran
  }
  // The nut only touches (penetration 0): every normal bias is ≥ 0, so v = 0 satisfies every
  // normal constraint and each case has a solution. (Penetrating placements asked all contacts to
  // separate, which no rigid-nut velocity did on half of them: every solver stalled there.)
  for (const ContactProblem& p : cases) {
    double lowest = INFINITY;
    for (const Constraint& c : p.constraints) lowest = std::min(lowest, p.e[c.row]);
    EXPECT_GE(lowest, 0.0) << p.meta.name;
  }
  // Same seed, same cases: bitwise.
  const auto again =
      FindScenario("bolt_nut").generate({{"configurations", "2"}, {"wrenches", "2"}}, 4, 3);
  EXPECT_TRUE(again[3].J.isApprox(cases[3].J, 0.0));
  EXPECT_EQ(again[3].b, cases[3].b);
}

// The ADMM solvers keep what they reach: before the residual balancing of 004:43 backed off,
// β cycled 3.7 ↔ 60 every ~10 iterations on these cases and the residuals grew 3× per cycle,
// res004 going from 1e-16 back to 3e-1 (subadmm, case 1) and from 2e-8 to 3e-4 (case 0). Now
// both reach 1e-8 within 1000 iterations (350–900 measured) and no later point is above 9.3e-9.
TEST(BoltNut, AdmmSolversConvergeWithoutCyclingThePenalty) {
  const std::vector<ContactProblem> cases = FindScenario("bolt_nut").generate({}, 2, 1);
  for (const char* solver : {"subadmm", "admm-full"}) {
    const SolverEntry& e = FindSolver(solver);
    const SolverJob job{&e, Settings::Parse(solver, e.settings, {})};
    RunOptions opt;
    opt.budget.iters = 3000;
    opt.trace_every = 50;
    for (const ContactProblem& p : cases) {
      const RunRecord r = RunOne(p, Evaluator(p), job, opt, nullptr, 0);
      int first = -1;
      double worst_after = 0.0;
      for (const TracePoint& t : r.trace) {
        const double res = t.metrics[Metric::kRes004];
        if (first >= 0)
          worst_after = std::max(worst_after, res);
        else if (res <= 1e-8)
          first = t.iteration;
      }
      std::printf("%s on %s: res004 <= 1e-8 at iteration %d, worst later %.2e\n", solver,
                  p.meta.name.c_str(), first, worst_after);
      EXPECT_EQ(r.status, Outcome::kMaxIterations);
      EXPECT_GE(first, 0);
      EXPECT_LE(first, 1000);
      EXPECT_LE(worst_after, 2e-8);
    }
  }
}

TEST(BoltNut, BadParametersAreOneLineErrors) {
  try {
    FindScenario("bolt_nut").generate({{"mu", "-1"}}, 1, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "bolt_nut.mu = -1: must be >= 0");
  }
  EXPECT_THROW(FindScenario("bolt_nut").generate({{"nope", "1"}}, 1, 1), Error);
  EXPECT_THROW(FindScenario("bolt_nut").generate({{"configurations", "1.5"}}, 1, 1), Error);
  // 32 segments a turn: the chords of the nut's root dip 115 µm, past the 100 µm clearance, and
  // cut the bolt's crest where lifting the nut cannot open them.
  try {
    FindScenario("bolt_nut").generate({{"segments_per_turn", "32"}}, 1, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("bolt_nut.segments_per_turn = 32: the nut mesh cuts the bolt"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ncp
