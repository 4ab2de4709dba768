#include "solvers/common/dense_factors.h"

#include <algorithm>
#include <cstdint>

namespace ncp {

void DenseFactors::Reset(int nsub) {
  n_.assign(nsub, 0);
  K_.assign(nsub, {});
  // Constructed in place: copying an Eigen::LLT before compute() reads its unset status.
  llt_.clear();
  llt_.resize(nsub);
  factors_.clear(), at_.assign(nsub, 0), shift_ = 0;
}

void DenseFactors::Add(int j, const Eigen::MatrixXd& A) {
  const int n = static_cast<int>(A.rows());
  n_[j] = n;
  K_[j] = Eigen::MatrixXd::Zero(n, n);
  llt_[j].compute(A);  // sizes the factor's storage
}

void DenseFactors::Pack() {
  constexpr std::size_t kLine = 8;  // doubles per 64-byte line
  std::size_t at = 0;
  for (std::size_t j = 0; j < n_.size(); ++j) {
    at_[j] = at;
    if (Packed(static_cast<int>(j)))
      at += (static_cast<std::size_t>(n_[j]) * n_[j] + kLine - 1) / kLine * kLine;
  }
  factors_.assign(at + kLine, 0.0);
  const auto address = reinterpret_cast<std::uintptr_t>(factors_.data());
  shift_ = (kLine - address / sizeof(double) % kLine) % kLine;
}

bool DenseFactors::Factorize(int j, const Eigen::MatrixXd& A, const Eigen::MatrixXd& C,
                             double beta) {
  K_[j] = A;
  K_[j] += beta * C;
  llt_[j].compute(K_[j]);
  if (llt_[j].info() != Eigen::Success) return false;
  if (Packed(j)) {
    const Eigen::MatrixXd& L = llt_[j].matrixLLT();
    std::copy(L.data(), L.data() + L.size(), factors_.data() + Offset(j));
  }
  return true;
}

void DenseFactors::Solve(int j, double* x) const {
  const int n = n_[j];
  Eigen::Map<Eigen::VectorXd> v(x, n);
  if (!Packed(j)) {
    llt_[j].solveInPlace(v);
    return;
  }
  const Eigen::Map<const Eigen::MatrixXd, Eigen::Aligned16> L(factors_.data() + Offset(j), n, n);
  L.triangularView<Eigen::Lower>().solveInPlace(v);
  L.adjoint().triangularView<Eigen::Upper>().solveInPlace(v);
}

}  // namespace ncp
