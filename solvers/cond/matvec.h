// y = Â x for the symmetric column-major Â (column i = row i), rows in parallel when large.
// No allocation: Iterate() calls it once per V-FPI step.
#pragma once

#include "solvers/common/dual_update.h"

namespace ncp::cond {

inline void SymmetricMultiply(const SpMat& A, const Vec& x, Vec& y) {
  const int n = static_cast<int>(A.cols());
#pragma omp parallel for schedule(static) if (n >= kParallelRows)
  for (int i = 0; i < n; ++i) y[i] = RowDot(A, i, x);
}

}  // namespace ncp::cond
