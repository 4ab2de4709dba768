// COND (002 Alg. 1–3) against references: exact solutions of manufactured nodal problems
// (strict operator), the relaxed complementarity of the proximal operator's fixed point
// (002 Prop. 5), virtual nodes on rigid-body problems (exact dynamics, perturbation shrinking as γ
// grows, 002 Prop. 2), the diagonal surrogate Delassus operator (002 Prop. 3), Chebyshev
// acceleration, and the guards (bad settings, non-finite input, local problems).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include <omp.h>

#include <fmt/format.h>

#include <Eigen/Dense>

#include "harness/runner.h"
#include "problems/math/cone.h"
#include "solvers/cond/cond.h"
#include "solvers/cond/row_groups.h"
#include "solvers/cond/step_size.h"
#include "tests/expect_error.h"
#include "tests/nodal_problems.h"
#include "tests/solver_info.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

Settings CondSet(const std::string& text) {
  return Settings::Parse("cond", FindSolver("cond").settings, ParseKeyValues(text));
}

RunRecord RunCond(const ContactProblem& p, const std::string& settings, int iters, double tol,
                  WarmStart* solution = nullptr) {
  const SolverEntry& e = FindSolver("cond");
  const SolverJob job{&e, CondSet(settings)};
  RunOptions opt;
  opt.budget.iters = iters;
  opt.budget.tol = tol;
  return RunOne(p, Evaluator(p), job, opt, nullptr, 0, solution);
}

using testing::InfoValue;

// Iterates until the V-FPI residual ‖x̄_{k+1} − x_k‖ falls below `tol`; returns the iterations.
int IterateToFixedPoint(Solver& s, double tol, int max_iters) {
  for (int k = 1; k <= max_iters; ++k) {
    EXPECT_EQ(s.Iterate(), Status::kRunning) << s.message();
    if (InfoValue(s, "vfpi_residual") <= tol) return k;
  }
  return max_iters;
}

// COND on p with `settings` iterated to its V-FPI fixed point (residual 1e-13).
struct FixedPoint {
  Vec v, lambda;
  int iters = 0;
};
FixedPoint CondFixedPoint(const ContactProblem& p, const std::string& settings, int max_iters) {
  cond::CondSolver s;
  EXPECT_EQ(s.Setup(p, CondSet(settings), nullptr), Status::kRunning);
  FixedPoint f;
  f.iters = IterateToFixedPoint(s, 1e-13, max_iters);
  s.Current(f.v, f.lambda);
  return f;
}

// --- Nodalization and diagonalization -------------------------------------------------------

TEST(CondNodalization, DetectsNodalContactsAndDiagonalSurrogateDelassus) {
  testing::NodalOptions o;
  o.general_contacts = 5;
  const ContactProblem p = testing::MakeNodalProblem(o);
  const cond::Nodalization nd = cond::Nodalize(p, 100.0);
  EXPECT_EQ(nd.nodal_s, o.s_contacts);
  EXPECT_EQ(nd.nodal_d, o.d_contacts);
  EXPECT_EQ(nd.virtual_nodes, o.general_contacts);
  EXPECT_EQ(nd.dofs, p.num_dofs() + 3 * o.general_contacts);
  // Prop. 3: with the block-scalar Frobenius P, Ĵ P Ĵᵀ is diagonal and scalar per contact.
  const Vec pdiag = cond::FrobeniusStep(nd);
  double off = 0.0, spread = 0.0;
  for (const cond::NodalConstraint& c : nd.constraints) {
    if (c.kind == cond::NodeKind::kVirtual) continue;
    Eigen::Matrix3d W = pdiag[c.dof_a[0]] * c.R * c.R.transpose();
    if (c.kind == cond::NodeKind::kNodalD) W += pdiag[c.dof_b[0]] * c.R * c.R.transpose();
    for (int k = 0; k < 3; ++k) {
      spread = std::max(spread, std::abs(pdiag[c.dof_a[k]] - pdiag[c.dof_a[0]]));
      if (c.dof_b[0] >= 0)
        spread = std::max(spread, std::abs(pdiag[c.dof_b[k]] - pdiag[c.dof_a[0]]));
    }
    off =
        std::max(off, (W - W(0, 0) * Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() / W(0, 0));
  }
  // Across contacts: the J rows of two nodal contacts share no dof, so W̃ has no coupling.
  SpMat Jn = p.J;
  const SpMat JP = Jn * Vec(pdiag.head(p.num_dofs())).asDiagonal();
  const SpMat Wt = JP * SpMat(Jn.transpose());
  double cross = 0.0;
  for (int k = 0; k < Wt.outerSize(); ++k)
    for (SpMat::InnerIterator it(Wt, k); it; ++it)
      if (it.row() / 3 != it.col() / 3 && it.row() < 3 * (o.s_contacts + o.d_contacts) &&
          it.col() < 3 * (o.s_contacts + o.d_contacts))
        cross = std::max(cross, std::abs(it.value()));
  std::printf(
      "surrogate Delassus: max relative off-diagonal %.1e, block p spread %.1e, "
      "cross-contact %.1e\n",
      off, spread, cross);
  EXPECT_LE(off, 1e-12);
  EXPECT_EQ(spread, 0.0);
  EXPECT_EQ(cross, 0.0);
}

TEST(CondNodalization, SecondContactOnANodeGetsAVirtualNode) {
  testing::NodalOptions o;
  o.s_contacts = 2, o.d_contacts = 0;
  ContactProblem p = testing::MakeNodalProblem(o);
  // Duplicate contact 0 (same node, same rows): it may not share the node's step block.
  const int r = AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  SpMat J(p.num_rows(), p.num_dofs());
  std::vector<Eigen::Triplet<double>> t;
  for (int k = 0; k < p.J.outerSize(); ++k)
    for (SpMat::InnerIterator it(p.J, k); it; ++it) {
      t.emplace_back(it.row(), it.col(), it.value());
      if (it.row() < 3) t.emplace_back(p.constraints[r].row + it.row(), it.col(), it.value());
    }
  J.setFromTriplets(t.begin(), t.end());
  p.J = J;
  const cond::Nodalization nd = cond::Nodalize(p, 100.0);
  EXPECT_EQ(nd.nodal_s, 2);
  EXPECT_EQ(nd.virtual_nodes, 1);
}

// 002:15 as a problem of its own: eliminating the virtual nodes gives back A v = b + Jᵀλ for any
// λ (002:18), and each virtual node moves with w_i = J_i v + λ_i/γ_i (002:17); on a problem whose
// contacts are all nodal it is the problem itself.
TEST(CondNodalization, NodalizedProblemEliminatesToTheOriginalDynamics) {
  const ContactProblem p = testing::OnlyType(ConstraintType::kContact, 5);
  const cond::Nodalization nd = cond::Nodalize(p, 50.0);
  const ContactProblem q = cond::NodalizedProblem(p, nd);
  ASSERT_EQ(q.num_dofs(), nd.dofs);
  ASSERT_EQ(q.num_rows(), p.num_rows());
  ASSERT_GT(nd.virtual_nodes, 0);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> n01;
  Vec lambda(p.num_rows());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) lambda[i] = n01(rng);
  const Eigen::MatrixXd Ahat(q.A), A(p.A);
  const Vec x = Ahat.ldlt().solve(q.b + q.J.transpose() * lambda);
  const Vec v = A.ldlt().solve(p.b + p.J.transpose() * lambda);
  EXPECT_LE((x.head(nd.n) - v).norm(), 1e-9 * (1 + v.norm()));
  const Vec Jv = p.J * v;
  for (const cond::NodalConstraint& c : nd.constraints) {
    ASSERT_EQ(c.kind, cond::NodeKind::kVirtual);
    for (int k = 0; k < c.rows; ++k)
      EXPECT_NEAR(x[c.dof_a[k]], Jv[c.row + k] + lambda[c.row + k] / c.gamma,
                  1e-9 * (1 + std::abs(x[c.dof_a[k]])));
  }
  const ContactProblem nodal = testing::MakeNodalProblem({});
  const ContactProblem same = cond::NodalizedProblem(nodal, cond::Nodalize(nodal, 50.0));
  EXPECT_EQ((Eigen::MatrixXd(same.J) - Eigen::MatrixXd(nodal.J)).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((Eigen::MatrixXd(same.A) - Eigen::MatrixXd(nodal.A)).cwiseAbs().maxCoeff(), 0.0);
}

// --- Strict operator on nodal problems -------------------------------------------------------

struct NodalCase {
  const char* label;
  const char* settings;
  int iters;
};

class CondOnNodal : public ::testing::TestWithParam<NodalCase> {};

TEST_P(CondOnNodal, ReachesExactSolution) {
  const NodalCase& c = GetParam();
  double worst_res = 0, worst_v = 0, worst_lam = 0;
  int worst_iters = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    testing::NodalOptions o;
    o.seed = seed;
    const ContactProblem p = testing::MakeNodalProblem(o);
    WarmStart sol;
    const RunRecord r = RunCond(p, c.settings, c.iters, 1e-10, &sol);
    ASSERT_TRUE(r.status == Outcome::kConverged || r.status == Outcome::kMaxIterations)
        << ToString(r.status) << r.message;
    const double verr = (sol.v - p.reference->v).norm() / p.reference->v.norm();
    worst_res = std::max(worst_res, r.final_metrics[Metric::kRes004]);
    worst_v = std::max(worst_v, verr);
    worst_lam = std::max(worst_lam, r.lambda_err);
    worst_iters = std::max(worst_iters, r.iterations);
    EXPECT_LE(r.final_metrics[Metric::kRes004], 1e-8) << "seed " << seed;
    EXPECT_LE(verr, 1e-7) << "seed " << seed;
    EXPECT_LE(r.lambda_err, 1e-6) << "seed " << seed;
  }
  std::printf("%-12s worst res004 %.2e, |v-v*|/|v*| %.2e, |l-l*|/|l*| %.2e, most iterations %d\n",
              c.label, worst_res, worst_v, worst_lam, worst_iters);
}

INSTANTIATE_TEST_SUITE_P(
    Steps, CondOnNodal,
    ::testing::Values(NodalCase{"defaults", "", 5000},
                      NodalCase{"frobenius", "step=frobenius", 3000},
                      NodalCase{"frob_nocheb", "step=frobenius;chebyshev=off", 20000},
                      NodalCase{"bb", "step=bb", 5000}, NodalCase{"bb1", "step=bb1", 5000},
                      NodalCase{"bb2", "step=bb2", 5000}, NodalCase{"power", "step=power", 5000}),
    [](const auto& info) { return std::string(info.param.label); });

// Warm-started at the exact solution, one V-FPI step stays there (the solution is a fixed point).
TEST(CondOnNodal, ExactSolutionIsAFixedPoint) {
  const ContactProblem p = testing::MakeNodalProblem({});
  cond::CondSolver s;
  const WarmStart warm{p.reference->v, p.reference->lambda};
  ASSERT_EQ(s.Setup(p, CondSet(""), &warm), Status::kRunning);
  ASSERT_EQ(s.Iterate(), Status::kRunning);
  Vec v, lam;
  s.Current(v, lam);
  const double dv = (v - p.reference->v).norm(), dl = (lam - p.reference->lambda).norm();
  std::printf("after one step from (v*, l*): |v-v*| %.1e, |l-l*| %.1e\n", dv, dl);
  EXPECT_LE(dv, 1e-12);
  EXPECT_LE(dl, 1e-12);
}

TEST(CondChebyshev, FewerIterationsThanPlainVfpi) {
  testing::NodalOptions o;
  o.stiffness_ratio = 100.0;
  const ContactProblem p = testing::MakeNodalProblem(o);
  const RunRecord on = RunCond(p, "step=frobenius;chebyshev=on", 20000, 1e-8);
  const RunRecord off = RunCond(p, "step=frobenius;chebyshev=off", 20000, 1e-8);
  ASSERT_EQ(on.status, Outcome::kConverged) << on.message;
  ASSERT_EQ(off.status, Outcome::kConverged) << off.message;
  std::printf("iterations to res004 <= 1e-8: chebyshev on %d, off %d (%.1fx)\n", on.iterations,
              off.iterations, static_cast<double>(off.iterations) / on.iterations);
  EXPECT_LE(on.iterations * 2, off.iterations);
}

// --- Proximal operator: the CCP fixed point (002 Prop. 5, 002:36) ----------------------------

TEST(CondProximal, FixedPointSatisfiesRelaxedComplementarity) {
  const ContactProblem p = testing::MakeNodalProblem({});
  const auto [v, lam, iters] = CondFixedPoint(p, "operator=proximal", 20000);
  const Vec u = p.J * v + p.e;
  double cone = 0, dual_cone = 0, compl_ = 0;
  for (const Constraint& c : p.constraints) {
    const int r = c.row;
    const double lt = std::hypot(lam[r + 1], lam[r + 2]), ut = std::hypot(u[r + 1], u[r + 2]);
    cone = std::max(cone, std::max(lt - c.mu * lam[r], -lam[r]));
    dual_cone = std::max(dual_cone, c.mu * ut - u[r]);  // u ∈ K*: u_n ≥ μ‖u_t‖
    compl_ = std::max(compl_, std::abs(lam.segment<3>(r).dot(u.segment<3>(r))));
  }
  const double dyn = (p.A * v - p.b - p.J.transpose() * lam).norm() / p.b.norm();
  std::printf("proximal after %d iterations: cone %.1e, dual cone %.1e, |l.u| %.1e, dyn %.1e\n",
              iters, cone, dual_cone, compl_, dyn);
  EXPECT_LT(iters, 20000);
  EXPECT_LE(cone, 1e-12);
  EXPECT_LE(dual_cone, 1e-8);
  EXPECT_LE(compl_, 1e-8);
  EXPECT_LE(dyn, 1e-8);
}

// With R (002:37) the proximal fixed point is invertible: λ_i = Π_K(−(J_i v + e_i)/R_i) from the
// velocity alone, and R's effect vanishes as r → 0.
TEST(CondProximal, RegularizedFixedPointIsInvertible) {
  const ContactProblem p = testing::MakeNodalProblem({});
  const auto [v, lam, iters] = CondFixedPoint(p, "operator=proximal;regularization=0.1", 40000);
  const Vec u = p.J * v + p.e;
  const Vec R = cond::Regularization(p, 0.1);
  Vec inverse(p.num_rows());
  for (const Constraint& c : p.constraints) {
    ASSERT_GT(R[c.row], 0.0);
    const double trial[3] = {-u[c.row] / R[c.row], -u[c.row + 1] / R[c.row],
                             -u[c.row + 2] / R[c.row]};
    ProjectProximal(c.mu, trial, inverse.data() + c.row);
  }
  const double err = (inverse - lam).norm() / lam.norm();
  const double dyn = (p.A * v - p.b - p.J.transpose() * lam).norm() / p.b.norm();
  std::printf("regularized proximal after %d iterations: |l_inv - l|/|l| %.1e, dyn %.1e\n", iters,
              err, dyn);
  EXPECT_LT(iters, 40000);
  EXPECT_LE(err, 1e-9);
  EXPECT_LE(dyn, 1e-9);
  // R's effect vanishes with r: the regularized impulses approach the unregularized CCP ones.
  const Vec plain = CondFixedPoint(p, "operator=proximal", 40000).lambda;
  const double far = (lam - plain).norm() / plain.norm();
  const double near =
      (CondFixedPoint(p, "operator=proximal;regularization=1e-4", 40000).lambda - plain).norm() /
      plain.norm();
  std::printf("regularized vs plain CCP: r = 0.1: %.1e, r = 1e-4: %.1e\n", far, near);
  EXPECT_GT(far, 1e-3);
  EXPECT_LT(near * 100, far);
}

// --- Virtual nodes on rigid bodies (002 §III-A2, Prop. 2) ------------------------------------

TEST(CondVirtualNodes, ExactDynamicsAndPerturbationShrinksWithGamma) {
  const ContactProblem p = testing::OnlyType(ConstraintType::kContact, 5);
  const Evaluator ev(p);
  double res[2], dyn[2];
  const double gammas[2] = {10.0, 1000.0};
  for (int g = 0; g < 2; ++g) {
    cond::CondSolver s;
    ASSERT_EQ(s.Setup(p, CondSet(fmt::format("gamma={}", gammas[g])), nullptr), Status::kRunning);
    EXPECT_EQ(InfoValue(s, "virtual_nodes"), p.num_constraints());
    const int iters = IterateToFixedPoint(s, 1e-12, 40000);
    Vec v, lam;
    s.Current(v, lam);
    const Metrics m = ev.Evaluate(v, lam);
    res[g] = m[Metric::kRes004];
    dyn[g] = m[Metric::kDyn];
    std::printf("gamma %6.0f: %d iterations, res004 %.2e, dyn %.1e\n", gammas[g], iters, res[g],
                dyn[g]);
    EXPECT_LE(dyn[g], 1e-8);  // the fixed point is exact; what is left scales with the stop rule
  }
  EXPECT_LE(res[1] * 10.0, res[0]);
}

// Every row type at once (soft rows folded, unilateral/bilateral rows on 1-dof virtual nodes).
TEST(CondVirtualNodes, EveryRowTypeConverges) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(7), "acc");
  cond::CondSolver s;
  ASSERT_EQ(s.Setup(p, CondSet("gamma=1000"), nullptr), Status::kRunning);
  const int iters = IterateToFixedPoint(s, 1e-12, 40000);
  Vec v, lam;
  s.Current(v, lam);
  const Metrics m = Evaluator(p).Evaluate(v, lam);
  const double lerr = (lam - p.reference->lambda).norm() / p.reference->lambda.norm();
  std::printf(
      "acceptance problem, gamma 1000: %d iterations, res004 %.2e, dyn %.1e, "
      "|l-l*|/|l*| %.2e\n",
      iters, m[Metric::kRes004], m[Metric::kDyn], lerr);
  EXPECT_LE(m[Metric::kDyn], 1e-8);
  EXPECT_LE(m[Metric::kRes004], 1e-3);
  EXPECT_LE(lerr, 1e-2);
}

// The per-contact solves own disjoint dofs and the parallel product is row-wise: two threads
// must give the one-thread iterates up to the summation order of the product.
TEST(CondParallel, ThreadsAgreeToRounding) {
  testing::NodalOptions o;
  o.nx = o.ny = o.nz = 10;  // 3000 dofs, 400 contacts: above both parallel thresholds
  o.s_contacts = 300, o.d_contacts = 100;
  const ContactProblem p = testing::MakeNodalProblem(o);
  Vec v[2], lam[2];
  int used[2];
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    cond::CondSolver s;
    ASSERT_EQ(s.Setup(p, CondSet(""), nullptr), Status::kRunning);
    for (int k = 0; k < 50; ++k) ASSERT_EQ(s.Iterate(), Status::kRunning);
    s.Current(v[threads - 1], lam[threads - 1]);
    used[threads - 1] = s.ThreadsUsed();
  }
  omp_set_num_threads(omp_get_num_procs());
  EXPECT_EQ(used[0], 1);
  EXPECT_EQ(used[1], 2);
  // One thread takes the upper-triangle product, two the full rows: the same sums in another
  // order, so the iterates agree to rounding (a race would corrupt whole entries).
  const double dv = (v[0] - v[1]).norm() / v[0].norm(),
               dl = (lam[0] - lam[1]).norm() / lam[0].norm();
  std::printf("1 vs 2 threads after 50 iterations: relative difference v %.2e, lambda %.2e\n", dv,
              dl);
  EXPECT_LE(dv, 1e-10);
  EXPECT_LE(dl, 1e-10);
}

// Warm start (002 §V-A5): from its own converged (v, λ), virtual nodes start at
// w_i = J_i v + λ_i/γ_i (the eliminated dynamics, 002:17), so the first step is already converged.
TEST(CondVirtualNodes, WarmStartFromOwnSolutionIsConverged) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(8), "warm");
  cond::CondSolver cold;
  ASSERT_EQ(cold.Setup(p, CondSet("gamma=10"), nullptr), Status::kRunning);
  const int iters = IterateToFixedPoint(cold, 1e-13, 40000);
  WarmStart warm;
  cold.Current(warm.v, warm.lambda);
  cond::CondSolver hot;
  ASSERT_EQ(hot.Setup(p, CondSet("gamma=10"), &warm), Status::kRunning);
  ASSERT_EQ(hot.Iterate(), Status::kRunning);
  const double first = InfoValue(hot, "vfpi_residual");
  std::printf("cold start: %d iterations to 1e-13; warm start: first V-FPI residual %.1e\n", iters,
              first);
  EXPECT_LE(first, 1e-10);
}

// --- Guards ----------------------------------------------------------------------------------

// Per block of 11 rows: node triples 0–2, 3–5 and 8–10 (one pattern per triple), a virtual node 6
// on the first triple and an uncoupled row 7, both singles. The grouped product must equal the
// plain sparse product to rounding, in both storages (full rows, and the upper triangle used
// twice), serial and above the parallel threshold; both count the same flops.
TEST(CondRowGroups, ProductEqualsSparseProduct) {
  for (const int blocks : {1, 400}) {
    const int n = 11 * blocks;
    std::vector<Eigen::Triplet<double>> t;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    auto sym = [&](int i, int j, double v) {
      t.emplace_back(i, j, v);
      if (i != j) t.emplace_back(j, i, v);
    };
    for (int b = 0; b < blocks; ++b) {
      const int o = 11 * b;
      for (int i = 0; i < 11; ++i) sym(o + i, o + i, 10.0 + u(rng));
      for (const int a : {0, 3, 8})  // node triples: full 3×3 diagonal blocks
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < i; ++j) sym(o + a + i, o + a + j, u(rng));
      for (int i = 0; i < 3; ++i)  // coupled to each other and to the next block's second triple
        for (int j = 0; j < 3; ++j) {
          sym(o + 3 + j, o + i, u(rng));
          sym(o + 8 + j, o + i, u(rng));
          sym(o + 8 + j, o + 3 + i, u(rng));
          if (b + 1 < blocks) sym(o + 8 + j, o + 11 + 3 + i, u(rng));
        }
      for (int j = 0; j < 3; ++j) sym(o + 6, o + j, u(rng));  // a virtual node on the first triple
    }
    SpMat A(n, n);
    A.setFromTriplets(t.begin(), t.end());
    A.makeCompressed();
    const Vec x = Vec::NullaryExpr(n, [&](Eigen::Index) { return u(rng); });
    const Vec ref = A * x;
    for (const bool upper : {false, true}) {
      cond::RowGroups g;
      g.Build(A, upper);
      EXPECT_EQ(g.grouped_rows(), 9 * blocks);
      Vec y = Vec::Constant(n, 7.0);  // the product must overwrite, not accumulate
      g.Multiply(x, y);
      EXPECT_LE((y - ref).norm(), 1e-13 * ref.norm()) << blocks << " blocks, upper " << upper;
      // Both forms do the same arithmetic: 2 flops per stored entry of Â.
      EXPECT_EQ(g.MultiplyWork().flops, 2.0 * static_cast<double>(A.nonZeros()))
          << blocks << " blocks, upper " << upper;
    }
  }
}

TEST(CondGuards, BadSettingsGiveOneLineErrors) {
  testing::ExpectError([] { CondSet("gamma=0"); }, {"cond.gamma = 0", "must be"});
  testing::ExpectError([] { CondSet("step=newton"); }, {"cond.step", "newton", "frobenius"});
  testing::ExpectError([] { CondSet("rho_max=1"); }, {"cond.rho_max = 1"});
  testing::ExpectError([] { CondSet("cheb_start=2.5"); }, {"cond.cheb_start", "integer"});
  testing::ExpectError([] { CondSet("omega=1"); }, {"omega"});
}

TEST(CondGuards, NonFiniteInputIsDiverged) {
  ContactProblem p = testing::MakeNodalProblem({});
  p.b[4] = std::numeric_limits<double>::quiet_NaN();
  cond::CondSolver s;
  ASSERT_EQ(s.Setup(p, CondSet(""), nullptr), Status::kRunning);
  EXPECT_EQ(s.Iterate(), Status::kDiverged);
  EXPECT_FALSE(s.message().empty());
}

TEST(CondGuards, LocalProblemIsNotApplicable) {
  const ContactProblem p = testing::OneContactLocalProblem();
  cond::CondSolver s;
  EXPECT_EQ(s.Setup(p, CondSet(""), nullptr), Status::kNotApplicable);
  EXPECT_NE(s.message().find("primal form"), std::string::npos);
}

}  // namespace
}  // namespace ncp
