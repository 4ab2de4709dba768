#include "harness/reproduce/thread_scope.h"

#include <omp.h>

#include "harness/thread_limits.h"

namespace ncp {

SolverThreadScope::SolverThreadScope(int threads) : previous_(omp_get_max_threads()) {
  SetSolverThreads(threads);
}

SolverThreadScope::~SolverThreadScope() { SetSolverThreads(previous_); }

}  // namespace ncp
