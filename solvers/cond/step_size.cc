#include "solvers/cond/step_size.h"

#include <algorithm>
#include <cmath>

#include "solvers/cond/matvec.h"

namespace ncp::cond {

Vec FrobeniusStep(const Nodalization& nd) {
  const int N = nd.dofs;
  Vec diag = Vec::Zero(N), norm2 = Vec::Zero(N);
  for (int k = 0; k < nd.A.outerSize(); ++k)
    for (SpMat::InnerIterator it(nd.A, k); it; ++it) {  // column k = row k (symmetric)
      norm2[k] += it.value() * it.value();
      if (it.row() == k) diag[k] = it.value();
    }
  Vec p(N);
  for (int i = 0; i < N; ++i) p[i] = norm2[i] > 0 ? diag[i] / norm2[i] : 0.0;
  for (std::size_t b = 0; b + 1 < nd.block_ptr.size(); ++b) {
    double num = 0.0, den = 0.0;
    for (int k = nd.block_ptr[b]; k < nd.block_ptr[b + 1]; ++k) {
      num += diag[nd.block_dofs[k]];
      den += norm2[nd.block_dofs[k]];
    }
    const double pb = den > 0 ? num / den : 0.0;
    for (int k = nd.block_ptr[b]; k < nd.block_ptr[b + 1]; ++k) p[nd.block_dofs[k]] = pb;
  }
  return p;
}

double LargestEigenvalue(const SpMat& A, const Vec& p, int iters) {
  const int N = static_cast<int>(A.rows());
  if (N == 0) return 0.0;
  // Work on the symmetric P^½ Â P^½ so the Rayleigh quotient bounds λ_max from below.
  const Vec sp = p.cwiseSqrt();
  Vec z(N), y(N), t(N);
  for (int i = 0; i < N; ++i) z[i] = 1.0 + 0.5 * std::sin(1.0 + i);
  z.normalize();
  double lambda = 0.0;
  for (int k = 0; k < iters; ++k) {
    t = sp.cwiseProduct(z);
    SymmetricMultiply(A, t, y);
    y = sp.cwiseProduct(y);
    lambda = z.dot(y);
    const double norm = y.norm();
    if (!(norm > 0) || !std::isfinite(norm)) break;
    z = y / norm;
  }
  return lambda;
}

double GershgorinBound(const SpMat& A) {
  double bound = 0.0;
  for (int k = 0; k < A.outerSize(); ++k) {  // column k = row k (symmetric)
    double sum = 0.0;
    for (SpMat::InnerIterator it(A, k); it; ++it) sum += std::abs(it.value());
    bound = std::max(bound, sum);
  }
  return bound;
}

double BarzilaiBorwein(bool first_form, double ss, double sy, double yy, double previous) {
  if (!(sy > 0)) return previous;
  const double step = first_form ? ss / sy : sy / yy;
  return std::isfinite(step) && step > 0 ? step : previous;
}

}  // namespace ncp::cond
