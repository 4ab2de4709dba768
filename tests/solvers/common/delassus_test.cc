// W = J A⁻¹ Jᵀ as the dual solvers get it, against a dense Cholesky reference: the dense path
// (m² ≤ 2e6: a few hundred rows) and the blocked sparse path (larger m) agree with it to rounding,
// are exactly symmetric, and keep no explicit zeros.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
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
  const SpMat W = AssembleDelassus(J, chol);
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

}  // namespace
}  // namespace ncp
