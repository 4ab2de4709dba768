// Byte and flop counts of the kernels the solvers share, for Solver::Work() (docs/roofline.md).
// Conventions: a stored sparse entry moves its value and its index; a vector pass moves n
// doubles once, and a solver counts one pass per distinct vector an iteration touches (read,
// written or both); a product costs 2 flops per stored entry, a triangular
// solve pair with a factor 4 flops per factor entry, a vector operation 1 flop per entry and
// operand. Gathers of a vector inside a product are counted as one pass (the compulsory read).
#pragma once

#include "solvers/solver.h"

namespace ncp {

inline WorkCount operator+(WorkCount a, const WorkCount& b) {
  a.bytes += b.bytes;
  a.flops += b.flops;
  return a;
}
inline WorkCount operator*(double k, WorkCount a) {
  a.bytes *= k;
  a.flops *= k;
  return a;
}

namespace work {

inline constexpr double kValue = sizeof(double);
inline constexpr double kIndex = sizeof(SpMat::StorageIndex);

inline WorkCount Zero() { return {0.0, 0.0}; }

// y = M x with a compressed sparse M: its values, inner indices and outer pointers once.
inline WorkCount SparseProduct(const SpMat& M) {
  const double nnz = static_cast<double>(M.nonZeros());
  return {nnz * (kValue + kIndex) + (M.outerSize() + 1.0) * kIndex, 2.0 * nnz};
}
// y = M x with a dense rows × cols M.
inline WorkCount DenseProduct(double rows, double cols) {
  return {rows * cols * kValue, 2.0 * rows * cols};
}
// `passes` passes over vectors of n doubles, `flops` operations per entry in all.
inline WorkCount Vectors(double n, double passes, double flops = 0.0) {
  return {n * passes * kValue, n * flops};
}
// x = L⁻ᵀ L⁻¹ b with a sparse factor of `entries` stored entries (values and indices, read by
// the forward and the backward substitution) on n rows.
inline WorkCount SparseFactorSolve(double entries, double n) {
  return {2.0 * entries * (kValue + kIndex) + 3.0 * n * kValue, 4.0 * entries};
}
// The same with a dense n × n Cholesky factor (its n(n+1)/2 entries).
inline WorkCount DenseFactorSolve(double n) {
  const double entries = 0.5 * n * (n + 1.0);
  return {2.0 * entries * kValue + 3.0 * n * kValue, 4.0 * entries};
}

}  // namespace work
}  // namespace ncp
