#include "harness/thread_limits.h"

#include <dlfcn.h>
#include <omp.h>

namespace ncp {

void SetSolverThreads(int n) {
  if (n <= 0) return;
  omp_set_num_threads(n);
  // Looked up at run time: libblas.so.3 is whichever BLAS the system's alternatives select.
  using SetThreads = void (*)(int);
  if (auto f = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) f(n);
}

SolverThreadScope::SolverThreadScope(int threads) : previous_(omp_get_max_threads()) {
  SetSolverThreads(threads);
}

SolverThreadScope::~SolverThreadScope() { SetSolverThreads(previous_); }

}  // namespace ncp
