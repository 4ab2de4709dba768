// CholmodLLT: solves A x = b, refuses a matrix that is not SPD, and reports the size and cost of
// its factor (what the reproductions use to turn times into flop rates).
#include <gtest/gtest.h>

#include <omp.h>

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
  using Kind = CholmodLLT::Kind;
  for (const Kind kind : {Kind::kSimplicial, Kind::kSupernodal, Kind::kAuto}) {
    const int label = static_cast<int>(kind);
    const int n = 200;
    const SpMat A = Tridiagonal(n);
    CholmodLLT llt(kind);
    llt.Analyze(A);
    ASSERT_TRUE(llt.Factorize(A));
    const Vec b = Vec::LinSpaced(n, -1.0, 2.0);
    Vec x(n);
    llt.Solve(b, x);
    EXPECT_LT((A * x - b).norm(), 1e-12 * b.norm()) << label;
    // No fill-in whatever the ordering a path graph gets: L holds the diagonal and n − 1 more.
    EXPECT_EQ(llt.factor_nonzeros(), 2.0 * n - 1) << label;
    // Per column of L with k off-diagonal entries, CHOLMOD counts (k + 1)² flops.
    EXPECT_EQ(llt.factor_flops(), 4.0 * (n - 1) + 1.0) << label;
  }
}

// kAuto is CHOLMOD's rule: simplicial when the factorization does fewer than 40 flops per
// nonzero of L (a tridiagonal matrix: about 2), supernodal above (a dense one: about n/3). Both
// solve to the same accuracy, in place too.
TEST(CholmodLLT, AutoChoosesByFlopsPerNonzero) {
  const SpMat sparse = Tridiagonal(300);
  Eigen::MatrixXd M = Eigen::MatrixXd::Random(300, 300);
  const SpMat dense =
      (M * M.transpose() + 300.0 * Eigen::MatrixXd::Identity(300, 300)).sparseView();
  for (const SpMat* A : {&sparse, &dense}) {
    const bool expect_super = A == &dense;
    CholmodLLT llt(CholmodLLT::Kind::kAuto);
    llt.Analyze(*A);
    ASSERT_TRUE(llt.Factorize(*A));
    EXPECT_EQ(llt.factor_flops() / llt.factor_nonzeros() >= 40.0, expect_super);
    EXPECT_EQ(llt.supernodal(), expect_super);
    const Vec b = Vec::LinSpaced(300, -1.0, 2.0);
    Vec x(300);
    llt.Solve(b, x);
    EXPECT_LT((*A * x - b).norm(), 1e-12 * b.norm()) << expect_super;
    Vec y = b;
    llt.Solve(y.data(), y.data());
    EXPECT_LT((y - x).norm(), 1e-14 * x.norm()) << expect_super;
  }
}

TEST(CholmodLLT, RefusesAMatrixThatIsNotPositiveDefinite) {
  SpMat A = Tridiagonal(5);
  A.coeffRef(2, 2) = -1.0;
  CholmodLLT llt;
  llt.Analyze(A);
  EXPECT_FALSE(llt.Factorize(A));
}

// The supernodal factorization runs CHOLMOD's own OpenMP regions on the calling thread (their
// thread count is fixed in the library); the caller's OpenMP settings are as they were after it,
// and the factor is the same bits whatever they were.
TEST(CholmodLLT, FactorizeKeepsTheCallersThreadSettingsAndItsBits) {
  Eigen::MatrixXd M = Eigen::MatrixXd::Random(400, 400);
  const SpMat A = (M * M.transpose() + 400.0 * Eigen::MatrixXd::Identity(400, 400)).sparseView();
  const Vec b = Vec::LinSpaced(400, -1.0, 2.0);
  const int threads = omp_get_max_threads(), dynamic = omp_get_dynamic();
  std::vector<Vec> x;
  for (const auto& [n, dyn] : {std::pair{1, 0}, std::pair{2, 0}, std::pair{3, 1}}) {
    omp_set_num_threads(n);
    omp_set_dynamic(dyn);
    CholmodLLT llt(CholmodLLT::Kind::kSupernodal);
    llt.Analyze(A);
    ASSERT_TRUE(llt.Factorize(A));
    EXPECT_EQ(omp_get_max_threads(), n);
    EXPECT_EQ(omp_get_dynamic(), dyn);
    x.emplace_back(400);
    llt.Solve(b, x.back());
  }
  omp_set_num_threads(threads);
  omp_set_dynamic(dynamic);
  EXPECT_EQ(x[0], x[1]);
  EXPECT_EQ(x[0], x[2]);
}

}  // namespace
}  // namespace ncp
