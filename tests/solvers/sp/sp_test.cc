// sp (staggered projections, 003 Alg. 2): with the exact friction disk its fixed points are the
// manufactured problems' solutions (every constraint type); with 003's box its iterates respect
// the box and stop short of the disk problem where a contact slides off the axes.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>

#include "harness/runner.h"
#include "problems/scenarios/random/manufactured.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

RunRecord RunSp(const ContactProblem& p, const std::map<std::string, std::string>& given, int iters,
                double tol) {
  const SolverEntry& e = FindSolver("sp");
  RunOptions opt;
  opt.budget.iters = iters;
  opt.budget.tol = tol;
  opt.threads = 1;
  return RunOne(p, Evaluator(p), SolverJob{&e, Settings::Parse("sp", e.settings, given)}, opt,
                nullptr, 0);
}

// Measured when added: all 10 reach res004 ≤ 1e-8 within 400 outer iterations, worst
// ‖λ − λ*‖/‖λ*‖ 3.5e-6.
TEST(Sp, ExactConeReachesTheManufacturedSolutions) {
  int reached = 0;
  double worst_err = 0.0;
  for (int k = 0; k < 10; ++k) {
    const ContactProblem p =
        MakeManufacturedProblem(testing::AcceptanceOptions(300 + k), fmt::format("sp{}", k));
    const RunRecord r = RunSp(p, {}, 400, 1e-8);
    reached += r.status == Outcome::kConverged;
    worst_err = std::max(worst_err, r.lambda_err);
    EXPECT_EQ(r.status, Outcome::kConverged)
        << p.meta.name << ": res004 " << r.final_metrics[Metric::kRes004] << " " << r.message;
  }
  std::printf(
      "sp (exact): res004 <= 1e-8 on %d/10 within 400 iterations; worst "
      "|lambda-lambda*|/|lambda*| %.2e\n",
      reached, worst_err);
  EXPECT_LT(worst_err, 1e-5);
}

TEST(Sp, BoxFrictionStaysInTheBoxAndMissesTheDisk) {
  const ContactProblem p =
      MakeManufacturedProblem(testing::ContactsOnlyOptions(311, 30, 24), "box");
  const SolverEntry& e = FindSolver("sp");
  const SolverJob job{&e, Settings::Parse("sp", e.settings, {{"cone", "box"}})};
  auto solver = e.make();
  ASSERT_EQ(solver->Setup(p, job.settings, nullptr), Status::kRunning);
  for (int k = 0; k < 300; ++k) ASSERT_EQ(solver->Iterate(), Status::kRunning);
  Vec v, lam;
  solver->Current(v, lam);
  bool outside_disk = false;
  for (const Constraint& c : p.constraints) {
    if (c.type != ConstraintType::kContact) continue;
    const double n = lam[c.row], t1 = lam[c.row + 1], t2 = lam[c.row + 2];
    EXPECT_GE(n, 0.0);
    EXPECT_LE(std::abs(t1), c.mu * n * (1 + 1e-12) + 1e-300);
    EXPECT_LE(std::abs(t2), c.mu * n * (1 + 1e-12) + 1e-300);
    outside_disk |= std::hypot(t1, t2) > c.mu * n * (1 + 1e-6);
  }
  // The manufactured solution has sliding contacts at general angles: the box fixed point puts
  // some friction in the box's corners, outside the disk, so res004 stays above the exact run's.
  EXPECT_TRUE(outside_disk);
  const RunRecord box = RunSp(p, {{"cone", "box"}}, 300, 0.0);
  const RunRecord exact = RunSp(p, {}, 300, 0.0);
  std::printf("sp after 300 iterations: res004 exact %.2e, box %.2e\n",
              exact.final_metrics[Metric::kRes004], box.final_metrics[Metric::kRes004]);
  EXPECT_GT(box.final_metrics[Metric::kRes004], 100 * exact.final_metrics[Metric::kRes004]);
}

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// contact_qp = direct solves the equality-only contact QP exactly: after one iteration of a
// frictionless joint-friction tree (no friction QP to stagger with) every joint holds, where the
// PGS contact QP (50 sweeps) is still far off; with friction it reaches the manufactured solution.
TEST(Sp, DirectContactQpIsExactOnEqualityRows) {
  JointFrictionTreeOptions o;
  o.bodies = 8;
  o.mu_min = o.mu_max = 0.0;
  const ContactProblem frictionless = ManufacturedJointFrictionTree(o, 70, "sp-direct");
  const RunRecord direct = RunSp(frictionless, {{"contact_qp", "direct"}}, 1, 0.0);
  const RunRecord pgs = RunSp(frictionless, {}, 1, 0.0);
  std::printf("sp after 1 iteration on a frictionless 8-body chain: res004 direct %.2e, pgs %.2e\n",
              direct.final_metrics[Metric::kRes004], pgs.final_metrics[Metric::kRes004]);
  EXPECT_LT(direct.final_metrics[Metric::kRes004], 1e-10);
  EXPECT_GT(pgs.final_metrics[Metric::kRes004], 1e-6);

  o.mu_min = 0.05, o.mu_max = 0.3;
  o.frac_stick = 0.0;  // λ* unique
  const ContactProblem p = ManufacturedJointFrictionTree(o, 71, "sp-direct-friction");
  const RunRecord r = RunSp(p, {{"contact_qp", "direct"}}, 20000, 1e-8);
  EXPECT_EQ(r.status, Outcome::kConverged) << r.final_metrics[Metric::kRes004] << " " << r.message;
  EXPECT_LT(r.lambda_err, 1e-5);

  // Contacts are inequalities: not an equality-only contact QP.
  const ContactProblem contacts =
      MakeManufacturedProblem(testing::ContactsOnlyOptions(312, 10, 8), "sp-direct-contacts");
  const RunRecord refused = RunSp(contacts, {{"contact_qp", "direct"}}, 10, 0.0);
  EXPECT_EQ(refused.status, Outcome::kNotApplicable);
  EXPECT_NE(refused.message.find("equality rows only"), std::string::npos) << refused.message;
}

}  // namespace
}  // namespace ncp
