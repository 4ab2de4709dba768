// The solver thread count for a protocol's measurements, set for one scope: the count in force
// before is restored on exit, also when a run throws, so one protocol's single-thread timing
// does not leak into the next one of `reproduce all`.
#pragma once

namespace ncp {

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
