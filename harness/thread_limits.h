// One thread count for everything that runs in parallel inside a solve: OpenMP, and the BLAS
// under CHOLMOD's supernodal factorization (OpenBLAS keeps its own thread pool, so a
// "single-thread" run would otherwise still time BLAS threads).
#pragma once

namespace ncp {

// n > 0: OpenMP and, when the loaded BLAS is OpenBLAS, its pool; n ≤ 0 leaves both as they are.
void SetSolverThreads(int n);

// The solver thread count for one scope (a protocol's measurements, a simulation's steps): the
// count in force before is restored on exit, also when a run throws, so that one scope's
// single-thread timing does not leak into the next one.
class SolverThreadScope {
 public:
  explicit SolverThreadScope(int threads);  // SetSolverThreads(threads); ≤ 0 changes nothing
  ~SolverThreadScope();
  SolverThreadScope(const SolverThreadScope&) = delete;
  SolverThreadScope& operator=(const SolverThreadScope&) = delete;

 private:
  int previous_;
};

}  // namespace ncp
