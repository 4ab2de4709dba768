// The subsystem ADMM solvers' dense route (solvers/common/dense_factors.h): its solves give
// LLT::solveInPlace's numbers to the bit, whatever the size and the place of the factor in the
// buffer, and a matrix that is not positive definite is refused.
#include "solvers/common/dense_factors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace ncp {
namespace {

Eigen::MatrixXd RandomSpd(int n, std::mt19937& rng) {
  std::normal_distribution<double> g;
  Eigen::MatrixXd X(n, n);
  for (int i = 0; i < n * n; ++i) X.data()[i] = g(rng);
  return X * X.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
}

TEST(DenseFactors, SolvesAreLltsBitForBit) {
  std::mt19937 rng(7);
  // Up to 16 one triangular panel, beyond it a matrix-vector product too; beyond kPackedMax the
  // factor is not copied.
  const std::vector<int> sizes = {1, 2, 3, 5, 6, 7, 12, 17, 24, 40, 6, 1, 9, 64, 65, 100};
  const int nsub = static_cast<int>(sizes.size()) + 1;
  DenseFactors f;
  f.Reset(nsub);
  std::vector<Eigen::MatrixXd> A, C;
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    A.push_back(RandomSpd(sizes[j], rng)), C.push_back(RandomSpd(sizes[j], rng));
    f.Add(static_cast<int>(j), A.back());
  }  // the last subsystem stays off the dense route
  f.Pack();
  std::normal_distribution<double> g;
  for (double beta : {0.0, 1e-3, 7.5}) {
    for (std::size_t j = 0; j < sizes.size(); ++j) {
      ASSERT_TRUE(f.Factorize(static_cast<int>(j), A[j], C[j], beta));
      const Eigen::MatrixXd K = A[j] + beta * C[j];
      const Eigen::LLT<Eigen::MatrixXd> llt(K);
      Eigen::VectorXd x(sizes[j]);
      for (int i = 0; i < x.size(); ++i) x[i] = g(rng);
      const Eigen::VectorXd b = x;
      Eigen::VectorXd y = x;
      llt.solveInPlace(x);
      f.Solve(static_cast<int>(j), y.data());
      EXPECT_EQ(std::memcmp(x.data(), y.data(), sizeof(double) * x.size()), 0)
          << "size " << sizes[j] << ", beta " << beta;
      EXPECT_LT((K * y - b).norm(), 1e-10 * K.norm() * y.norm());  // and it solves K y = b
    }
  }
}

TEST(DenseFactors, NotPositiveDefiniteIsRefused) {
  DenseFactors f;
  f.Reset(1);
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(3, 3);
  f.Add(0, A);
  f.Pack();
  Eigen::MatrixXd C = Eigen::MatrixXd::Identity(3, 3);
  C(1, 1) = -2.0;  // K = A + C has a negative diagonal entry
  EXPECT_FALSE(f.Factorize(0, A, C, 1.0));
  EXPECT_TRUE(f.Factorize(0, A, C, 0.25));
}

}  // namespace
}  // namespace ncp
