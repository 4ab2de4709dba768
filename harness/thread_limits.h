// One thread count for everything that runs in parallel inside a solve: OpenMP, and the BLAS
// under CHOLMOD's supernodal factorization (OpenBLAS keeps its own thread pool, so a
// "single-thread" run would otherwise still time BLAS threads).
#pragma once

namespace ncp {

// n > 0: OpenMP and, when the loaded BLAS is OpenBLAS, its pool; n ≤ 0 leaves both as they are.
void SetSolverThreads(int n);

}  // namespace ncp
