#include "problems/model/bitwise_compare.h"

#include <cstring>
#include <fmt/format.h>

namespace ncp {
namespace {

bool Same(const double* a, const double* b, Eigen::Index n) {
  return n == 0 || std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(double)) == 0;
}

std::string CompareSparse(const char* name, SpMat a, SpMat b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    return fmt::format("{}: size {}×{} vs {}×{}", name, a.rows(), a.cols(), b.rows(), b.cols());
  a.makeCompressed();
  b.makeCompressed();
  if (a.nonZeros() != b.nonZeros())
    return fmt::format("{}: {} vs {} stored entries", name, a.nonZeros(), b.nonZeros());
  if (!std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.cols() + 1, b.outerIndexPtr()) ||
      !std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr()))
    return fmt::format("{}: sparsity pattern differs", name);
  for (Eigen::Index k = 0; k < a.nonZeros(); ++k)
    if (!Same(a.valuePtr() + k, b.valuePtr() + k, 1))
      return fmt::format("{}: stored entry {} differs", name, k);
  return "";
}

std::string CompareVec(const char* name, const Vec& a, const Vec& b) {
  if (a.size() != b.size()) return fmt::format("{}: size {} vs {}", name, a.size(), b.size());
  for (Eigen::Index k = 0; k < a.size(); ++k)
    if (!Same(a.data() + k, b.data() + k, 1)) return fmt::format("{}: entry {} differs", name, k);
  return "";
}

}  // namespace

std::string FirstBitwiseDifference(const ContactProblem& a, const ContactProblem& b) {
  for (const std::string& d :
       {CompareSparse("A", a.A, b.A), CompareVec("b", a.b, b.b), CompareSparse("J", a.J, b.J),
        CompareVec("e", a.e, b.e), CompareSparse("W", a.W, b.W), CompareVec("q", a.q, b.q)})
    if (!d.empty()) return d;
  if (a.constraints.size() != b.constraints.size())
    return fmt::format("constraints: {} vs {}", a.constraints.size(), b.constraints.size());
  for (std::size_t i = 0; i < a.constraints.size(); ++i) {
    const Constraint &x = a.constraints[i], &y = b.constraints[i];
    if (x.type != y.type || x.row != y.row || !Same(&x.mu, &y.mu, 1))
      return fmt::format("constraint {}: type/row/mu {}/{}/{} vs {}/{}/{}", i, ToString(x.type),
                         x.row, x.mu, ToString(y.type), y.row, y.mu);
  }
  return "";
}

}  // namespace ncp
