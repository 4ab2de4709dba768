// The subsystem factorization of 004:40 on a chain of N bodies (floating root, N−1 revolute
// joints): refactorization + one solve, per algorithm. The articulated-body recursion (004
// Remark 1) is O(N); the CRBA assembly of a chain's dense K is O(N²) and its LTDL O(N³); the
// dense Cholesky is O(N³). scripts/tree_scaling.sh fits the log-log slopes.
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <random>
#include <vector>

#include "solvers/common/spatial_inertia.h"
#include "solvers/common/tree_factor.h"

namespace {

using ncp::Mat6;
using ncp::TreeFactor;

struct Chain {
  std::vector<TreeFactor::Body> bodies;
  std::vector<Mat6> H;
  int n = 0;
};

Chain MakeChain(int count) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  Chain c;
  for (int b = 0; b < count; ++b) {
    TreeFactor::Body x;
    if (b == 0) {
      x.parent = -1, x.dof = 0, x.ndof = 6;
      x.S.setIdentity();
    } else {
      x.parent = b - 1, x.dof = 5 + b, x.ndof = 1;
      const Eigen::Matrix3d R =
          Eigen::AngleAxisd(0.3 * u(rng), Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized())
              .toRotationMatrix();
      const Eigen::Vector3d p(0.1, 0.02 * u(rng), 0.02 * u(rng));
      Eigen::Matrix3d P;
      P << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
      x.X << R.transpose(), -R.transpose() * P, Eigen::Matrix3d::Zero(), R.transpose();
      x.S(5, 0) = 1.0;  // revolute about z
    }
    c.bodies.push_back(x);
    ncp::SpatialInertia10 s = ncp::SpatialInertia10::Body(1.0, Eigen::Vector3d(0.05, 0, 0),
                                                          0.01 * Eigen::Matrix3d::Identity());
    s.AddPointMass(0.5, Eigen::Vector3d(0.05 * u(rng), 0.05 * u(rng), 0.05 * u(rng)));
    Mat6 H;
    s.ToMatrix(H);
    c.H.push_back(H);
  }
  c.n = 5 + count;
  return c;
}

void BM_TreeFactorSolve(benchmark::State& state, TreeFactor::Method method) {
  const Chain c = MakeChain(static_cast<int>(state.range(0)));
  TreeFactor f;
  std::string why;
  if (!f.Init(c.bodies, c.n, method, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  std::vector<double> r(c.n, 1.0), x(c.n);
  for (auto _ : state) {
    f.Factorize(c.H.data());
    f.Solve(r.data(), x.data());
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["bodies"] = static_cast<double>(state.range(0));
}
BENCHMARK_CAPTURE(BM_TreeFactorSolve, aba, TreeFactor::Method::kAba)
    ->RangeMultiplier(2)
    ->Range(16, 1024);
BENCHMARK_CAPTURE(BM_TreeFactorSolve, crba, TreeFactor::Method::kCrba)
    ->RangeMultiplier(2)
    ->Range(16, 256);

// Dense reference: assemble K = Σ J_bᵀ H_b J_b and Cholesky it.
void BM_DenseFactorSolve(benchmark::State& state) {
  const Chain c = MakeChain(static_cast<int>(state.range(0)));
  std::vector<Eigen::MatrixXd> J(c.bodies.size());
  for (std::size_t b = 0; b < c.bodies.size(); ++b) {
    const TreeFactor::Body& x = c.bodies[b];
    J[b] = Eigen::MatrixXd::Zero(6, c.n);
    if (x.parent >= 0) J[b] = x.X * J[x.parent];
    J[b].middleCols(x.dof, x.ndof) += x.S.leftCols(x.ndof);
  }
  Eigen::MatrixXd K(c.n, c.n);
  Eigen::VectorXd r = Eigen::VectorXd::Ones(c.n);
  for (auto _ : state) {
    K.setZero();
    for (std::size_t b = 0; b < J.size(); ++b) K.noalias() += J[b].transpose() * c.H[b] * J[b];
    Eigen::VectorXd x = K.llt().solve(r);
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["bodies"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_DenseFactorSolve)->RangeMultiplier(2)->Range(16, 128);

}  // namespace
