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

void RowGroups::Build(const SpMat& A, bool upper) {
  upper_ = upper;
  n_ = static_cast<int>(A.cols());
  grouped_rows_ = 0;
  group_row_.clear(), group_size_.clear(), start_.assign(1, 0), index_.clear(), value_.clear();
  offset_.assign(1, 0);
  index_.reserve(A.nonZeros() / (upper ? 6 : 3) + n_);
  value_.reserve(A.nonZeros() / (upper ? 2 : 1) + 3 * n_);
  const int* o = A.outerIndexPtr();
  const int* in = A.innerIndexPtr();
  const double* v = A.valuePtr();
  int r = 0;
  while (r < n_) {
    const int size = r + 2 < n_ && SamePattern(A, r, r + 1) && SamePattern(A, r, r + 2) ? 3 : 1;
    // Upper storage keeps the columns from the group's first row on (its diagonal block
    // included); the pattern is sorted, so they are a suffix.
    int k0 = o[r];
    if (upper)
      while (k0 < o[r + 1] && in[k0] < r) ++k0;
    for (int k = k0; k < o[r + 1]; ++k) {
      index_.push_back(in[k]);
      for (int j = 0; j < size; ++j) value_.push_back(v[o[r + j] + (k - o[r])]);
    }
    group_row_.push_back(r);
    group_size_.push_back(static_cast<char>(size));
    start_.push_back(static_cast<int>(index_.size()));
    offset_.push_back(value_.size());
    if (size == 3) grouped_rows_ += 3;
    r += size;
  }
}

void RowGroups::Multiply(const Vec& x, Vec& y) const {
  if (upper_)
    MultiplyUpper(x, y);
  else
    MultiplyFull(x, y);
}

void RowGroups::MultiplyFull(const Vec& x, Vec& y) const {
  const int ng = static_cast<int>(group_row_.size());
  const double* xv = x.data();
#pragma omp parallel for schedule(static) if (n_ >= kParallelRows)
  for (int g = 0; g < ng; ++g) {
    const double* val = value_.data() + offset_[g];
    const int r = group_row_[g];
    if (group_size_[g] == 3) {
      double s0 = 0.0, s1 = 0.0, s2 = 0.0;
      for (int k = start_[g]; k < start_[g + 1]; ++k, val += 3) {
        const double xk = xv[index_[k]];
        s0 += val[0] * xk, s1 += val[1] * xk, s2 += val[2] * xk;
      }
      y[r] = s0, y[r + 1] = s1, y[r + 2] = s2;
    } else {
      double s = 0.0;
      for (int k = start_[g]; k < start_[g + 1]; ++k, ++val) s += val[0] * xv[index_[k]];
      y[r] = s;
    }
  }
}

void RowGroups::MultiplyUpper(const Vec& x, Vec& y) const {
  y.setZero();
  const int ng = static_cast<int>(group_row_.size());
  const double* xv = x.data();
  double* yv = y.data();
  for (int g = 0; g < ng; ++g) {
    const double* val = value_.data() + offset_[g];
    const int r = group_row_[g], size = group_size_[g], last = r + size - 1;
    int k = start_[g];
    if (size == 3) {
      const double x0 = xv[r], x1 = xv[r + 1], x2 = xv[r + 2];
      double s0 = 0.0, s1 = 0.0, s2 = 0.0;
      for (; k < start_[g + 1] && index_[k] <= last; ++k, val += 3) {  // the diagonal block
        const double xk = xv[index_[k]];
        s0 += val[0] * xk, s1 += val[1] * xk, s2 += val[2] * xk;
      }
      for (; k < start_[g + 1]; ++k, val += 3) {  // after it: used for row r… and for column c
        const int c = index_[k];
        const double xk = xv[c];
        s0 += val[0] * xk, s1 += val[1] * xk, s2 += val[2] * xk;
        yv[c] += val[0] * x0 + val[1] * x1 + val[2] * x2;
      }
      yv[r] += s0, yv[r + 1] += s1, yv[r + 2] += s2;
    } else {
      const double x0 = xv[r];
      double s = 0.0;
      for (; k < start_[g + 1]; ++k, ++val) {
        const int c = index_[k];
        s += val[0] * xv[c];
        if (c != r) yv[c] += val[0] * x0;
      }
      yv[r] += s;
    }
  }
}

// The stored values, indices and group records once; x and y once each. Flops: 2 per value;
// the upper triangle's values past a diagonal block serve two products (4), its diagonal
// blocks' one (2).
WorkCount RowGroups::MultiplyWork() const {
  const double values = static_cast<double>(value_.size());
  const double groups = static_cast<double>(group_row_.size());
  const double record = sizeof(int) + sizeof(char) + sizeof(int) + sizeof(std::size_t);
  const double bytes = values * sizeof(double) + static_cast<double>(index_.size()) * sizeof(int) +
                       groups * record + 2.0 * n_ * sizeof(double);
  double twice = 0.0;  // values used for two products
  if (upper_) {
    const int ng = static_cast<int>(group_row_.size());
    for (int g = 0; g < ng; ++g) {
      const int last = group_row_[g] + group_size_[g] - 1;
      for (int k = start_[g]; k < start_[g + 1]; ++k)
        if (index_[k] > last) twice += group_size_[g];
    }
  }
  return {bytes, 2.0 * values + 2.0 * twice};
}

}  // namespace ncp::cond
