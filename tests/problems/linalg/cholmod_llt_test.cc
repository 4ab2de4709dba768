// CholmodLLT: solves A x = b, refuses a matrix that is not SPD, and reports the size and cost of
// its factor (what the reproductions use to turn times into flop rates).
#include <gtest/gtest.h>

#include <vector>

#include "problems/linalg/cholmod_llt.h"

namespace ncp {
namespace {

// The 1-D Laplacian plus identity: tridiagonal, SPD, its Cholesky factor has no fill-in.
SpMat Tridiagonal(int n) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 3.0);
    if (i + 1 < n) t.emplace_back(i + 1, i, -1.0), t.emplace_back(i, i + 1, -1.0);
  }
  SpMat A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

TEST(CholmodLLT, SolvesAndCountsItsFactor) {
  for (const bool supernodal : {false, true}) {
    const int n = 200;
    const SpMat A = Tridiagonal(n);
    CholmodLLT llt(supernodal);
    llt.Analyze(A);
    ASSERT_TRUE(llt.Factorize(A));
    const Vec b = Vec::LinSpaced(n, -1.0, 2.0);
    Vec x(n);
    llt.Solve(b, x);
    EXPECT_LT((A * x - b).norm(), 1e-12 * b.norm()) << supernodal;
    // No fill-in whatever the ordering a path graph gets: L holds the diagonal and n − 1 more.
    EXPECT_EQ(llt.factor_nonzeros(), 2.0 * n - 1) << supernodal;
    // Per column of L with k off-diagonal entries, CHOLMOD counts (k + 1)² flops.
    EXPECT_EQ(llt.factor_flops(), 4.0 * (n - 1) + 1.0) << supernodal;
  }
}

TEST(CholmodLLT, RefusesAMatrixThatIsNotPositiveDefinite) {
  SpMat A = Tridiagonal(5);
  A.coeffRef(2, 2) = -1.0;
  CholmodLLT llt;
  llt.Analyze(A);
  EXPECT_FALSE(llt.Factorize(A));
}

}  // namespace
}  // namespace ncp
