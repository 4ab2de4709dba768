// nnewton (000 §IV-B4): convergence to the exact solutions of the 20 manufactured problems and
// its floor, the generalized Jacobian against central differences of F away from kinks, and
// non-finite input reported as diverged.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "harness/runner.h"
#include "solvers/registry.h"
#include "solvers/nnewton/nnewton.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

// Measured when added: every problem reaches res004 ≤ 1e-8 within 10 Newton steps (quadratic
// tail), and 30 steps end at the rounding floor, worst res004 4.5e-16 and ‖λ − λ*‖/‖λ*‖ ~1e-14.
TEST(NNewton, ConvergesToTheManufacturedSolutionsDownToRounding) {
  const SolverEntry& e = FindSolver("nnewton");
  const SolverJob job{&e, Settings::Parse("nnewton", e.settings, {})};
  int reached = 0, most = 0;
  double floor = 0.0, worst_err = 0.0;
  for (int k = 0; k < 20; ++k) {
    const ContactProblem p =
        MakeManufacturedProblem(testing::AcceptanceOptions(100 + k), fmt::format("m{}", k));
    const Evaluator ev(p);
    RunOptions to_tol;
    to_tol.budget.iters = 12;
    to_tol.budget.tol = 1e-8;
    const RunRecord r = RunOne(p, ev, job, to_tol, nullptr, 0);
    if (r.status == Outcome::kConverged) ++reached, most = std::max(most, r.iterations);
    RunOptions full;
    full.budget.iters = 30;
    const RunRecord f = RunOne(p, ev, job, full, nullptr, 0);
    EXPECT_EQ(f.status, Outcome::kMaxIterations) << f.message;
    floor = std::max(floor, f.final_metrics[Metric::kRes004]);
    worst_err = std::max(worst_err, f.lambda_err);
  }
  std::printf(
      "nnewton: res004 <= 1e-8 on %d/20 within 12 steps (most %d); floor after 30 "
      "steps: worst res004 %.2e, worst |lambda-lambda*|/|lambda*| %.2e\n",
      reached, most, floor, worst_err);
  EXPECT_EQ(reached, 20);
  EXPECT_LE(floor, 1e-14);
  EXPECT_LE(worst_err, 1e-10);
}

// G = ∂F/∂x against central differences, column by column, skipping columns whose stencil
// crosses a kink (G differs between x ± h e_j).
TEST(NNewton, JacobianMatchesFiniteDifferencesAwayFromKinks) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "j");
  const SolverEntry& e = FindSolver("nnewton");
  NNewtonSolver s;
  ASSERT_EQ(s.Setup(p, Settings::Parse("nnewton", e.settings, {}), nullptr), Status::kRunning);
  const int n = p.num_dofs(), m = p.num_rows();
  std::srand(5);
  Vec x(n + m);
  x << p.reference->v, p.reference->lambda;
  x += 0.05 * Vec::Random(n + m);
  Vec f(n + m), fp(n + m), fm(n + m);
  s.Residual(x, f);
  const Eigen::MatrixXd G = Eigen::MatrixXd(s.Jacobian(x));
  const double h = 1e-7;
  double worst = 0.0;
  int checked = 0;
  for (int j = 0; j < n + m; ++j) {
    Vec xp = x, xm = x;
    xp[j] += h, xm[j] -= h;
    s.Residual(xp, fp);
    const Eigen::MatrixXd Gp = Eigen::MatrixXd(s.Jacobian(xp));
    s.Residual(xm, fm);
    const Eigen::MatrixXd Gm = Eigen::MatrixXd(s.Jacobian(xm));
    if ((Gp.col(j) - Gm.col(j)).cwiseAbs().maxCoeff() >
        1e-3 * std::max(1.0, G.col(j).cwiseAbs().maxCoeff()))
      continue;
    ++checked;
    const Vec fd = (fp - fm) / (2 * h);
    worst = std::max(worst, (fd - G.col(j)).cwiseAbs().maxCoeff() /
                                std::max(1.0, G.col(j).cwiseAbs().maxCoeff()));
  }
  std::printf("nnewton Jacobian vs central differences: %d/%d columns, worst relative error %.2e\n",
              checked, n + m, worst);
  EXPECT_GT(checked, (n + m) * 9 / 10);
  EXPECT_LT(worst, 1e-5);  // δ = 1e-10 on Φ_λ's diagonal is inside this
}

TEST(NNewton, NonFiniteInputIsReportedAsDiverged) {
  for (int which = 0; which < 2; ++which) {
    ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(7), "nan");
    if (which == 0)
      p.b[3] = std::numeric_limits<double>::quiet_NaN();
    else
      p.e[0] = std::numeric_limits<double>::infinity();
    const SolverEntry& e = FindSolver("nnewton");
    auto s = e.make();
    ASSERT_EQ(s->Setup(p, Settings::Parse("nnewton", e.settings, {}), nullptr), Status::kRunning);
    EXPECT_EQ(s->Iterate(), Status::kDiverged) << which;
    EXPECT_FALSE(s->message().empty());
  }
}

// A local problem runs through the lifted form (W = I: rank 3) and is solved on W as stored.
TEST(NNewton, LocalProblemRunsOnItsLiftedForm) {
  const ContactProblem p = testing::OneContactLocalProblem();
  const SolverEntry& e = FindSolver("nnewton");
  EXPECT_EQ(e.local, LocalUse::kLifted);
  RunOptions opt;
  opt.budget.iters = 50;
  const RunRecord r = RunOne(
      p, Evaluator(p), SolverJob{&e, Settings::Parse("nnewton", e.settings, {})}, opt, nullptr, 0);
  ASSERT_NE(r.status, Outcome::kNotApplicable) << r.message;
  EXPECT_LE(r.final_metrics[Metric::kNatmapRel], 1e-10);
  EXPECT_NE(r.solver_info.find("lifted_rank"), std::string::npos) << r.solver_info;
}

}  // namespace
}  // namespace ncp
