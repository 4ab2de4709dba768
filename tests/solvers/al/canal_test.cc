// CANAL's pieces against references: the Hessian of 004:24 against finite differences of r(v̂)
// away from the cone's kinks, r(v̂) against the gradient of h(v̂) (Prop. 3), and the rtsafe line
// search against the exact minimizer of 1-D convex functions.
#include <gtest/gtest.h>

#include <cmath>

#include "solvers/al/canal.h"
#include "solvers/al/line_search.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

struct Fixture {
  ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(31), "c");
  CanalSolver canal;
  Vec v;
  Fixture() {
    const SolverEntry& e = FindSolver("canal");
    // β₀ = 10 keeps every contact's trial away from its kinks for most v̂.
    canal.Setup(p, Settings::Parse("canal", e.settings, {{"beta", "10"}}), nullptr);
    v = p.reference->v + 0.05 * Vec::Random(p.num_dofs());
  }
};

TEST(Canal, HessianMatchesFiniteDifferencesOfR) {
  Fixture f;
  const Eigen::MatrixXd K = Eigen::MatrixXd(f.canal.Hessian(f.v));
  Vec r0(f.v.size()), r1(f.v.size()), r2(f.v.size());
  const double h = 1e-7;
  double worst = 0.0;
  for (int j = 0; j < f.v.size(); ++j) {
    Vec vp = f.v, vm = f.v;
    vp[j] += h, vm[j] -= h;
    f.canal.Gradient(vp, r1);
    f.canal.Gradient(vm, r2);
    const Vec col = (r1 - r2) / (2 * h);
    worst = std::max(worst, (col - K.col(j)).cwiseAbs().maxCoeff() /
                                std::max(1.0, K.col(j).cwiseAbs().maxCoeff()));
  }
  EXPECT_LT(worst, 1e-5);
  std::printf("004:24 Hessian vs central differences of r: worst relative column error %.2e\n",
              worst);
}

TEST(Canal, RIsTheGradientOfTheConvexObjective) {
  Fixture f;
  Vec r(f.v.size());
  f.canal.Gradient(f.v, r);
  const double h = 1e-6;
  for (int j = 0; j < f.v.size(); j += 7) {
    Vec vp = f.v, vm = f.v;
    vp[j] += h, vm[j] -= h;
    const double g = (f.canal.Objective(vp) - f.canal.Objective(vm)) / (2 * h);
    EXPECT_NEAR(g, r[j], 1e-5 * std::max(1.0, std::abs(r[j]))) << "dof " << j;
  }
}

TEST(Rtsafe, FindsTheExactMinimizerOfConvexFunctions) {
  // f(α) = cosh(α − 2.7) + 0.3 α²: f' = sinh(α − 2.7) + 0.6 α.
  auto df = [](double a, double& g, double& h) {
    g = std::sinh(a - 2.7) + 0.6 * a;
    h = std::cosh(a - 2.7) + 0.6;
  };
  const LineSearchResult r = Rtsafe(df, 1.0);
  double g, h;
  df(r.alpha, g, h);
  EXPECT_TRUE(r.converged);
  EXPECT_LT(std::abs(g), 1e-12 * std::abs(std::sinh(-2.7)));
  // Piecewise quadratic (a kink, like the cone operators): minimum at α = 3 exactly.
  auto kink = [](double a, double& g, double& h) {
    g = a < 1 ? 2 * (a - 5) : 8 * (a - 3);
    h = a < 1 ? 2.0 : 8.0;
  };
  const LineSearchResult k = Rtsafe(kink, 0.5);
  EXPECT_NEAR(k.alpha, 3.0, 1e-12);
}

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// dλ/dλ* of both cone operators against central differences at random trials away from kinks.
TEST(OperatorJacobian, MatchesFiniteDifferencesForBothCones) {
  std::srand(3);
  Constraint c;
  c.type = ConstraintType::kContact;
  int checked[2] = {0, 0};
  for (int k = 0; k < 20000; ++k) {
    c.mu = 0.1 + 0.9 * std::rand() / RAND_MAX;
    const Eigen::Vector3d x = Eigen::Vector3d::Random() * 2.0;
    const double e[3] = {0, 0, 0};
    for (ConeOperator cone : {ConeOperator::kStrict, ConeOperator::kProximal}) {
      Mat3r D;
      OperatorJacobian(c, 1.0, x.data(), cone, D);
      Mat3r fd;
      const double h = 1e-7;
      bool kink = false;
      for (int j = 0; j < 3; ++j) {
        Eigen::Vector3d xp = x, xm = x, yp = Eigen::Vector3d::Zero(), ym = yp;
        xp[j] += h, xm[j] -= h;
        ApplyConstraintOperator(c, 1.0, xp.data(), e, yp.data(), cone);
        ApplyConstraintOperator(c, 1.0, xm.data(), e, ym.data(), cone);
        fd.col(j) = (yp - ym) / (2 * h);
        Mat3r Dp, Dm;
        OperatorJacobian(c, 1.0, xp.data(), cone, Dp);
        OperatorJacobian(c, 1.0, xm.data(), cone, Dm);
        kink |= (Dp - Dm).cwiseAbs().maxCoeff() > 1e-3;  // a branch switch inside the stencil
      }
      if (kink) continue;
      ++checked[cone == ConeOperator::kStrict];
      ASSERT_LT((fd - D).cwiseAbs().maxCoeff(), 1e-6)
          << (cone == ConeOperator::kStrict ? "strict" : "proximal") << " at " << x.transpose()
          << " mu " << c.mu << "\n"
          << D << "\nfd\n"
          << fd;
    }
  }
  EXPECT_GT(checked[0], 10000);
  EXPECT_GT(checked[1], 10000);
}

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// An axis-aligned contact: its normal and tangent rows share no column, yet D couples them, so
// K needs the cross entries. Compared with the dense A + β Jᵀ D J.
TEST(PenalizedMatrix, AssemblesCrossRowCouplingOfAxisAlignedContacts) {
  ContactProblem p;
  p.A = SpMat(6, 6);
  p.A.setIdentity();
  p.b = Vec::Zero(6);
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  std::vector<Eigen::Triplet<double>> t = {{0, 2, 1.0}, {1, 0, 1.0}, {2, 1, 1.0}};  // n=z, t=x, y
  p.J = SpMat(3, 6);
  p.J.setFromTriplets(t.begin(), t.end());
  p.e = Vec::Zero(3);
  PenalizedMatrix K;
  K.Setup(p);
  const double x[3] = {1.0, 3.0, 1.0};  // slipping trial: D has off-diagonal n–t terms
  std::vector<Mat3r> D(1);
  OperatorJacobian(p.constraints[0], 1.0, x, ConeOperator::kProximal, D[0]);
  ASSERT_GT(std::abs(D[0](0, 1)), 0.0);
  K.Assemble(2.0, D);
  const Eigen::MatrixXd Jd = Eigen::MatrixXd(p.J);
  const Eigen::MatrixXd expected = Eigen::MatrixXd(p.A) + 2.0 * Jd.transpose() * D[0] * Jd;
  EXPECT_LT((Eigen::MatrixXd(K.matrix()) - expected).cwiseAbs().maxCoeff(), 1e-14);
}

}  // namespace
}  // namespace ncp
