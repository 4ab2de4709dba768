// CHOLMOD's numeric factorization (CholmodLLT::Factorize) of an FEM-like matrix at one and two
// solver threads: the wall time against the calling thread's CPU time shows whether threads
// other than the solver's (CHOLMOD's own OpenMP regions, BLAS's pool) wait for the cores.
#include <benchmark/benchmark.h>

#include <vector>

#include "harness/thread_limits.h"
#include "problems/linalg/cholmod_llt.h"

namespace {

// A 3-D grid of k³ nodes with 3 dofs each, every node coupled to its 26 neighbours (as a
// hexahedral FEM mesh couples them): 3993 dofs at k = 11 (the soft mat has 4356).
ncp::SpMat GridStiffness(int k) {
  const auto node = [k](int x, int y, int z) { return (x * k + y) * k + z; };
  std::vector<Eigen::Triplet<double>> t;
  for (int x = 0; x < k; ++x)
    for (int y = 0; y < k; ++y)
      for (int z = 0; z < k; ++z)
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dz = -1; dz <= 1; ++dz) {
              const int X = x + dx, Y = y + dy, Z = z + dz;
              if (X < 0 || Y < 0 || Z < 0 || X >= k || Y >= k || Z >= k) continue;
              const bool self = dx == 0 && dy == 0 && dz == 0;
              for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                  t.emplace_back(3 * node(x, y, z) + a, 3 * node(X, Y, Z) + b,
                                 self ? (a == b ? 40.0 : 0.1) : -0.4 - 0.01 * (a + b));
            }
  ncp::SpMat A(3 * k * k * k, 3 * k * k * k);
  A.setFromTriplets(t.begin(), t.end());
  A = 0.5 * (A + ncp::SpMat(A.transpose()));
  A.makeCompressed();
  return A;
}

void BM_SupernodalFactorize(benchmark::State& state) {
  const ncp::SpMat A = GridStiffness(11);
  const ncp::SolverThreadScope threads(static_cast<int>(state.range(0)));
  ncp::CholmodLLT llt(ncp::CholmodLLT::Kind::kSupernodal);
  llt.Analyze(A);
  for (auto _ : state)
    if (!llt.Factorize(A)) state.SkipWithError("not positive definite");
  state.counters["dofs"] = static_cast<double>(A.rows());
  state.counters["factor_nnz"] = llt.factor_nonzeros();
}
BENCHMARK(BM_SupernodalFactorize)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond);

}  // namespace
