// The boxed-LCP mapping (solvers/common/boxed_lcp.h): the friction rows' zonotope contains the
// Coulomb disk and touches it, A = Pᵀ W P and b = −Pᵀ q, bounds and friction indices per row type,
// and the tangent directions form a tight frame (the peers' warm start relies on it).
#include "solvers/common/boxed_lcp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "common/error.h"
#include "problems/scenarios/random/manufactured.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

TEST(BoxedLcp, TwoDirectionsAreTheEnginesBox) {
  EXPECT_EQ(FrictionBoundScale(2), 1.0);
  EXPECT_NEAR(FrictionBoundScale(4), 1.0 / (1.0 + std::sqrt(2.0)), 1e-15);
  EXPECT_THROW(FrictionBoundScale(1), Error);
}

// For every direction θ of the tangent plane the support of the zonotope of d rows bounded by
// ±c_d is ≥ 1 (the unit disk is inside), with equality somewhere (it touches): checked on a grid
// of 20000 angles, tolerance 1e-6 on the touch (the grid's resolution).
TEST(BoxedLcp, ZonotopeContainsAndTouchesTheDisk) {
  for (int d = 2; d <= 12; ++d) {
    const double c = FrictionBoundScale(d);
    double least = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 20000; ++k) {
      const double th = std::numbers::pi * k / 20000;
      double s = 0.0;
      for (int j = 0; j < d; ++j) s += c * std::abs(std::cos(th - std::numbers::pi * j / d));
      least = std::min(least, s);
    }
    EXPECT_GE(least, 1.0 - 1e-12) << d;
    EXPECT_LE(least, 1.0 + 1e-6) << d;
  }
}

TEST(BoxedLcp, MapsRowsBoundsAndOperator) {
  const ManufacturedOptions o = testing::SmallOptions(7, 12, 6, 2, 0);
  // The constraint list of a manufactured problem, on a random SPD W and a random q.
  ContactProblem p = MakeManufacturedProblem(o, "boxed");
  const int m = p.num_rows();
  const Eigen::MatrixXd B = Eigen::MatrixXd::Random(m, m);
  p.W = (B * B.transpose() + Eigen::MatrixXd::Identity(m, m)).sparseView();
  p.q = Vec::Random(m);
  for (int d : {2, 3, 8}) {
    const BoxedLcp lcp = MakeBoxedLcp(p.W, p.q, p.constraints, d);
    const int n = BoxedRows(p.constraints, d);
    ASSERT_EQ(lcp.rows(), n);
    ASSERT_EQ(lcp.P.rows(), m);
    const Eigen::MatrixXd P(lcp.P);
    EXPECT_LE((lcp.A - P.transpose() * Eigen::MatrixXd(p.W) * P).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((lcp.b + P.transpose() * p.q).cwiseAbs().maxCoeff(), 1e-12);
    int k = 0;
    for (const Constraint& c : p.constraints) {
      if (c.type == ConstraintType::kContact) {
        EXPECT_EQ(lcp.lo[k], 0.0);
        EXPECT_TRUE(std::isinf(lcp.hi[k]));
        EXPECT_EQ(lcp.findex[k], -1);
        for (int j = 1; j <= d; ++j) {
          EXPECT_EQ(lcp.findex[k + j], k);
          EXPECT_DOUBLE_EQ(lcp.hi[k + j], FrictionBoundScale(d) * c.mu);
          EXPECT_DOUBLE_EQ(lcp.lo[k + j], -lcp.hi[k + j]);
          // Tangent row j: unit direction in the contact's (t1, t2) plane, nothing on the normal.
          EXPECT_EQ(P(c.row, k + j), 0.0);
          EXPECT_NEAR(std::hypot(P(c.row + 1, k + j), P(c.row + 2, k + j)), 1.0, 1e-15);
        }
        k += 1 + d;
      } else {
        EXPECT_EQ(lcp.lo[k], c.type == ConstraintType::kBilateral
                                 ? -std::numeric_limits<double>::infinity()
                                 : 0.0);
        EXPECT_TRUE(std::isinf(lcp.hi[k]));
        EXPECT_EQ(P(c.row, k), 1.0);
        ++k;
      }
    }
    // Tight frame: P (Pᵀ λ with tangent rows scaled 2/d) = λ.
    const Vec lambda = Vec::LinSpaced(m, -1.0, 2.0);
    Vec x = lcp.P.transpose() * lambda;
    for (int i = 0; i < n; ++i)
      if (lcp.findex[i] >= 0) x[i] *= 2.0 / d;
    EXPECT_LE((lcp.P * x - lambda).cwiseAbs().maxCoeff(), 1e-12) << d;
  }
}

TEST(BoxedLcp, RefusesRowsWithoutABoxedForm) {
  const ContactProblem soft = testing::OnlyType(ConstraintType::kSoft);
  const SpMat W = Eigen::MatrixXd::Identity(soft.num_rows(), soft.num_rows()).sparseView();
  const Vec q = Vec::Zero(soft.num_rows());
  EXPECT_THROW(MakeBoxedLcp(W, q, soft.constraints, 2), Error);
  const ContactProblem one = testing::OneContactLocalProblem();
  EXPECT_THROW(MakeBoxedLcp(one.W, Vec::Zero(2), one.constraints, 2), Error);
}

}  // namespace
}  // namespace ncp
