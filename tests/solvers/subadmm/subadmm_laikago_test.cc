// Acceptance on simulated laikago_drop frames: subadmm and subadmm-nobody against admm-full when
// all three are converged to res004 ≤ 1e-10. Agreement in λ is not guaranteed: a settled pile of
// 8 robots has 250+ constraint rows on 144 dofs, so W = J A⁻¹ Jᵀ is singular and λ is only as
// well determined as the active cone constraints make it, while v is unique. The frames are
// steps 239, 263 and 287 of seed 1. Measured: λ agrees to 1.1e-8 (239) and 1.6e-9 (263); at 287
// both subsystem variants differ from admm-full by 3.6e-6 with v equal to 1.3e-9, and λ there is
// not unique: canal, run to res004 4e-12, lands 4.7e-2 away from all three (at 239 and 263 it
// agrees with subadmm to 1e-9). Asked for 1e-12 at 287, admm-full does not settle: its residual
// falls to 1e-11 and bursts back to 3e-3 every few thousand iterations at the β = 72 that 004:43
// reaches.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/runner.h"
#include "harness/simulate.h"

namespace ncp {
namespace {

TEST(SubAdmmOnLaikago, AgreesWithAdmmFullWhenConverged) {
  SimulateOptions sim;
  sim.every = 24;
  sim.steps = 12 * 24;
  sim.reference_solvers.clear();
  sim.quiet = true;
  std::vector<ContactProblem> frames = Simulate(*FindScene("laikago_drop"), {}, 1, sim).recorded;
  ASSERT_GE(frames.size(), 2u);
  frames.erase(frames.begin(), frames.end() - 3);  // the settling pile: steps 239, 263, 287
  RunOptions opt;
  opt.budget.iters = 40000;
  opt.budget.tol = 1e-10;
  opt.threads = 1;
  auto solve = [&](const ContactProblem& p, const char* name, const ParamMap& set, WarmStart& out) {
    const SolverEntry& e = FindSolver(name);
    const RunRecord r = RunOne(p, Evaluator(p), {&e, Settings::Parse(name, e.settings, set)}, opt,
                               nullptr, 0, &out);
    std::printf("  %-15s %-15s %6d iterations, res004 %.2e\n", name, ToString(r.status),
                r.iterations, r.final_metrics[Metric::kRes004]);
    EXPECT_EQ(r.status, Outcome::kConverged) << name << " on " << p.meta.name;
  };
  int lambda_agree = 0;
  double worst_v = 0.0;
  for (const ContactProblem& p : frames) {
    WarmStart full, sub, nobody;
    solve(p, "admm-full", {}, full);
    solve(p, "subadmm", {}, sub);
    solve(p, "subadmm-nobody", {{"beta_rule", "density"}}, nobody);
    for (const WarmStart* w : {&sub, &nobody}) {
      const double dv = (w->v - full.v).norm() / full.v.norm();
      const double dl = (w->lambda - full.lambda).norm() / full.lambda.norm();
      std::printf("%s: |v - v_full|/|v_full| %.2e, |λ - λ_full|/|λ_full| %.2e (%d contacts)\n",
                  p.meta.name.c_str(), dv, dl, p.num_contacts());
      worst_v = std::max(worst_v, dv);
      lambda_agree += dl <= 1e-6;
    }
  }
  EXPECT_LE(worst_v, 1e-6);
  EXPECT_GE(lambda_agree, 4);  // of 6 pairs: both variants at steps 239 and 263
}

}  // namespace
}  // namespace ncp
