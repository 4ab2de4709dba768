// CCS (002 §V-E1; Daviet 2020) against references: a particle on the ground sticking and
// slipping (closed form), manufactured nodal problems with a known exact solution (open, stick
// and slip contacts), the other constraint types on manufactured rigid problems, a local problem
// through its lifted form, and the guards.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/runner.h"
#include "solvers/ccs/ccs.h"
#include "tests/nodal_problems.h"
#include "tests/solver_info.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

Settings CcsSet(const std::string& text) {
  return Settings::Parse("ccs", FindSolver("ccs").settings, ParseKeyValues(text));
}

// ccs iterated `iters` times on p; (v, λ) its final iterate.
struct CcsResult {
  Status status = Status::kRunning;
  Vec v, lambda;
};
CcsResult IterateCcs(const ContactProblem& p, const std::string& settings, int iters) {
  CcsSolver s;
  CcsResult r;
  r.status = s.Setup(p, CcsSet(settings), nullptr);
  for (int k = 0; k < iters && r.status == Status::kRunning; ++k) r.status = s.Iterate();
  s.Current(r.v, r.lambda);
  return r;
}

// A 1 kg particle on the ground (normal z; rows n, t1 = x, t2 = y), μ = 0.5, h = 10 ms, pushed
// along x by f_x from velocity v0_x. Sticking (|f_x| < μ m g, at rest): v = 0, λ = −h f. Sliding:
// λ_n = h m g, λ_t1 = −μ λ_n, v_x = v0_x + h (f_x − μ m g)/m.
ContactProblem Particle(double v0x, double fx) {
  constexpr double m = 1.0, h = 0.01, g = 9.81;
  ContactProblem p;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  p.A = SpMat(3, 3);
  p.A.setIdentity();
  p.A *= m;
  p.J = SpMat(3, 3);
  p.J.insert(0, 2) = 1.0, p.J.insert(1, 0) = 1.0, p.J.insert(2, 1) = 1.0;
  p.J.makeCompressed();
  p.b = Vec(3);
  p.b << m * v0x + h * fx, 0.0, -h * m * g;
  p.e = Vec::Zero(3);
  return p;
}

TEST(Ccs, ParticleSticksBelowTheFrictionLimitAndSlidesAboveIt) {
  constexpr double h = 0.01, g = 9.81, mu = 0.5;
  const CcsResult stick = IterateCcs(Particle(0.0, 0.3 * g), "", 200);
  ASSERT_EQ(stick.status, Status::kRunning);
  EXPECT_NEAR(stick.v.norm(), 0.0, 1e-10);
  EXPECT_NEAR(stick.lambda[0], h * g, 1e-10);
  EXPECT_NEAR(stick.lambda[1], -h * 0.3 * g, 1e-10);
  EXPECT_NEAR(stick.lambda[2], 0.0, 1e-10);
  const CcsResult slip = IterateCcs(Particle(1.0, 0.0), "", 200);
  ASSERT_EQ(slip.status, Status::kRunning);
  EXPECT_NEAR(slip.v[0], 1.0 - h * mu * g, 1e-10);
  EXPECT_NEAR(slip.v[1], 0.0, 1e-10);
  EXPECT_NEAR(slip.v[2], 0.0, 1e-10);
  EXPECT_NEAR(slip.lambda[0], h * g, 1e-10);
  EXPECT_NEAR(slip.lambda[1], -mu * h * g, 1e-10);
}

// Nodal lattices with S- and D-contacts (the objects CCS is meant for) reach their manufactured
// exact solution; with one Gauss–Seidel sweep a step and with four.
TEST(Ccs, ReachesTheExactSolutionOfNodalProblems) {
  for (std::uint64_t seed : {1, 2, 3})
    for (const char* settings : {"", "sweeps=4"}) {
      testing::NodalOptions o;
      o.seed = seed;
      const ContactProblem p = testing::MakeNodalProblem(o);
      const CcsResult r = IterateCcs(p, settings, 3000);
      ASSERT_EQ(r.status, Status::kRunning) << seed << " " << settings;
      EXPECT_LT((r.v - p.reference->v).norm(), 1e-7 * p.reference->v.norm())
          << seed << " " << settings;
      EXPECT_LT((r.lambda - p.reference->lambda).norm(), 1e-7 * p.reference->lambda.norm())
          << seed << " " << settings;
    }
}

// Bilateral, unilateral and soft rows on manufactured rigid-body problems: res004 ≤ 1e-8.
TEST(Ccs, ConvergesOnEveryConstraintType) {
  const SolverEntry& e = FindSolver("ccs");
  for (ConstraintType t : {ConstraintType::kContact, ConstraintType::kUnilateral,
                           ConstraintType::kBilateral, ConstraintType::kSoft}) {
    const ContactProblem p = testing::OnlyType(t);
    RunOptions opt;
    opt.budget.iters = 20000;
    opt.budget.tol = 1e-8;
    const RunRecord r = RunOne(p, Evaluator(p), SolverJob{&e, CcsSet("")}, opt, nullptr, 0);
    EXPECT_EQ(r.status, Outcome::kConverged) << ToString(t) << ": " << r.message;
  }
}

// The one factorization is Setup's: W does not change, so no iteration refactors.
TEST(Ccs, FactorsOnceAndReportsItsSplittingResiduals) {
  const ContactProblem p = testing::MakeNodalProblem({});
  CcsSolver s;
  ASSERT_EQ(s.Setup(p, CcsSet("weight=0.5"), nullptr), Status::kRunning);
  for (int k = 0; k < 50; ++k) ASSERT_EQ(s.Iterate(), Status::kRunning);
  const SolverStats st = s.Stats();
  EXPECT_EQ(st.refactorizations, 1);
  EXPECT_EQ(st.penalty, 0.5);
  EXPECT_GE(st.primal_residual, 0.0);
  EXPECT_GE(st.dual_residual, 0.0);
  EXPECT_EQ(testing::InfoValue(s, "weight"), 0.5);
}

TEST(Ccs, RefusesADiagonalThatIsNotPositiveAndRunsLocalProblemsLifted) {
  ContactProblem p = Particle(0.0, 0.0);
  p.A.coeffRef(1, 1) = 0.0;
  CcsSolver s;
  EXPECT_EQ(s.Setup(p, CcsSet(""), nullptr), Status::kFailed);
  EXPECT_NE(s.message().find("A's diagonal: entry 1 is 0"), std::string::npos) << s.message();
  const ContactProblem local = testing::OneContactLocalProblem();
  const SolverEntry& e = FindSolver("ccs");
  RunOptions opt;
  opt.budget.iters = 2000;
  opt.budget.tol = 1e-8;
  const RunRecord r = RunOne(local, Evaluator(local), SolverJob{&e, CcsSet("")}, opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kConverged) << r.message;
}

}  // namespace
}  // namespace ncp
