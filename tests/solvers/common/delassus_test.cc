// W = J A⁻¹ Jᵀ as the dual solvers get it, against a dense Cholesky reference: the dense path
// (m² ≤ 2e6: a few hundred rows) and the blocked sparse path (larger m) agree with it to rounding,
// are exactly symmetric, and keep no explicit zeros.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cstdio>
#include <random>

#include "solvers/common/dual_problem.h"

namespace ncp {
namespace {

// A random SPD A (n × n, banded) and a random sparse J (m × n, 6 entries per row in a window, so
// W is block-banded with exact zeros far from the diagonal).
void RandomSystem(int n, int m, unsigned seed, SpMat& A, SpMat& J) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> ta, tj;
  for (int i = 0; i < n; ++i) {
    ta.emplace_back(i, i, 4.0 + u(rng));
    if (i + 1 < n) {
      const double c = 0.5 * u(rng);
      ta.emplace_back(i, i + 1, c), ta.emplace_back(i + 1, i, c);
    }
  }
  for (int r = 0; r < m; ++r) {
    const int c0 = static_cast<int>(static_cast<long>(r) * (n - 6) / m);
    for (int k = 0; k < 6; ++k) tj.emplace_back(r, c0 + k, u(rng));
  }
  A.resize(n, n), J.resize(m, n);
  A.setFromTriplets(ta.begin(), ta.end());
  J.setFromTriplets(tj.begin(), tj.end());
  A.makeCompressed(), J.makeCompressed();
}

double WorstRelativeError(int n, int m) {
  SpMat A, J;
  RandomSystem(n, m, 7u + static_cast<unsigned>(m), A, J);
  CholmodLLT chol;
  chol.Analyze(A);
  EXPECT_TRUE(chol.Factorize(A));
  const SpMat W = AssembleDelassus(A, J, chol);
  const Eigen::MatrixXd Jd = Eigen::MatrixXd(J);
  const Eigen::LLT<Eigen::MatrixXd> dense{Eigen::MatrixXd(A)};
  const Eigen::MatrixXd ref = Jd * dense.solve(Jd.transpose());
  const Eigen::MatrixXd Wd = Eigen::MatrixXd(W);
  EXPECT_EQ((Wd - Wd.transpose()).cwiseAbs().maxCoeff(), 0.0) << "m = " << m;
  int zeros = 0;
  for (int k = 0; k < W.outerSize(); ++k)
    for (SpMat::InnerIterator it(W, k); it; ++it) zeros += it.value() == 0.0;
  EXPECT_EQ(zeros, 0) << "explicit zeros stored, m = " << m << " of " << W.nonZeros();
  return (Wd - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
}

TEST(Delassus, DenseAndBlockedAssemblyMatchADenseReference) {
  const double dense = WorstRelativeError(60, 360);      // 360² ≤ 2e6: formed densely
  const double blocked = WorstRelativeError(300, 1500);  // 1500² > 2e6: 256-column blocks
  std::printf(
      "W = J A^-1 J^T vs dense Cholesky: worst error / max|W| %.2e (dense path, m = 360), "
      "%.2e (blocked path, m = 1500)\n",
      dense, blocked);
  EXPECT_LT(dense, 1e-13);
  EXPECT_LT(blocked, 1e-13);
}

// Beyond 10⁴ rows (m² > 1e8) a block-diagonal A (6-dof bodies) is inverted block by block:
// 33 000 rows on 12 000 bodies, each row on two bodies. Sampled columns of W against solves
// with the Cholesky factor of A, and exact symmetry.
TEST(Delassus, BlockDiagonalAssemblyBeyondTenThousandRowsMatchesFactorSolves) {
  const int bodies = 12000, n = 6 * bodies, m = 33000;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> body(0, bodies - 1);
  std::vector<Eigen::Triplet<double>> ta, tj;
  for (int b = 0; b < bodies; ++b) {
    Eigen::Matrix<double, 6, 6> R;
    for (int i = 0; i < 36; ++i) R.data()[i] = u(rng);
    const Eigen::Matrix<double, 6, 6> M =
        R * R.transpose() + 6.0 * Eigen::Matrix<double, 6, 6>::Identity();
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) ta.emplace_back(6 * b + r, 6 * b + c, M(r, c));
  }
  for (int r = 0; r < m; ++r)
    for (const int b : {body(rng), body(rng)})
      for (int k = 0; k < 6; ++k) tj.emplace_back(r, 6 * b + k, u(rng));
  SpMat A(n, n), J(m, n);
  A.setFromTriplets(ta.begin(), ta.end());
  J.setFromTriplets(tj.begin(), tj.end());
  A.makeCompressed(), J.makeCompressed();
  CholmodLLT chol;
  chol.Analyze(A);
  ASSERT_TRUE(chol.Factorize(A));
  const SpMat W = AssembleDelassus(A, J, chol);
  ASSERT_EQ(W.rows(), m);
  EXPECT_EQ((W - SpMat(W.transpose())).norm(), 0.0);
  double worst = 0.0, scale = 0.0;
  Vec x(n);
  for (int j = 0; j < m; j += m / 8) {
    const Vec col = Vec(J.row(j).transpose());
    chol.Solve(col, x);
    const Vec ref = J * x;
    worst = std::max(worst, (Vec(W.col(j)) - ref).cwiseAbs().maxCoeff());
    scale = std::max(scale, ref.cwiseAbs().maxCoeff());
  }
  std::printf("block-diagonal W, m = %d: worst error / max|W| %.2e over 8 columns\n", m,
              worst / scale);
  EXPECT_LT(worst / scale, 1e-13);
}

}  // namespace
}  // namespace ncp
