#include "solvers/cond/row_groups.h"

namespace ncp::cond {

namespace {
bool SamePattern(const SpMat& A, int a, int b) {
  const int* o = A.outerIndexPtr();
  const int* in = A.innerIndexPtr();
  if (o[a + 1] - o[a] != o[b + 1] - o[b]) return false;
  for (int k = 0; k < o[a + 1] - o[a]; ++k)
    if (in[o[a] + k] != in[o[b] + k]) return false;
  return true;
}
}  // namespace

void RowGroups::Build(const SpMat& A) {
  A_ = &A;
  triple_row_.clear(), triple_start_.assign(1, 0), index_.clear(), value_.clear();
  single_row_.clear();
  const int n = static_cast<int>(A.cols());
  const int* o = A.outerIndexPtr();
  const int* in = A.innerIndexPtr();
  const double* v = A.valuePtr();
  index_.reserve(A.nonZeros() / 3);
  value_.reserve(A.nonZeros());
  int r = 0;
  while (r < n) {
    if (r + 2 < n && SamePattern(A, r, r + 1) && SamePattern(A, r, r + 2)) {
      triple_row_.push_back(r);
      for (int k = o[r]; k < o[r + 1]; ++k) {
        const int d = k - o[r];
        index_.push_back(in[k]);
        for (int j = 0; j < 3; ++j) value_.push_back(v[o[r + j] + d]);
      }
      triple_start_.push_back(static_cast<int>(index_.size()));
      r += 3;
    } else {
      single_row_.push_back(r++);
    }
  }
}

void RowGroups::Multiply(const Vec& x, Vec& y) const {
  const int nt = static_cast<int>(triple_row_.size());
  const int ns = static_cast<int>(single_row_.size());
  const bool par = 3 * nt + ns >= kParallelRows;
  const double* xv = x.data();
#pragma omp parallel if (par)
  {
#pragma omp for schedule(static) nowait
    for (int t = 0; t < nt; ++t) {
      double s0 = 0.0, s1 = 0.0, s2 = 0.0;
      const double* val = value_.data() + 3 * static_cast<std::size_t>(triple_start_[t]);
      for (int k = triple_start_[t]; k < triple_start_[t + 1]; ++k, val += 3) {
        const double xk = xv[index_[k]];
        s0 += val[0] * xk, s1 += val[1] * xk, s2 += val[2] * xk;
      }
      const int r = triple_row_[t];
      y[r] = s0, y[r + 1] = s1, y[r + 2] = s2;
    }
#pragma omp for schedule(static)
    for (int k = 0; k < ns; ++k) y[single_row_[k]] = RowDot(*A_, single_row_[k], x);
  }
}

}  // namespace ncp::cond
