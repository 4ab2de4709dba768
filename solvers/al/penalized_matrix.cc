#include "solvers/al/penalized_matrix.h"

#include <algorithm>
#include <stdexcept>

namespace ncp {

void PenalizedMatrix::Setup(const ContactProblem& p) {
  p_ = &p;
  const SpMat Jt = p.J.transpose();  // column i of Jt = row i of J
  // D_i couples the rows of a constraint, so K has an entry for every pair of columns that any
  // row of the constraint touches: the pattern of Jcᵀ Jc with one merged row per constraint.
  std::vector<Eigen::Triplet<double>> merged;
  for (int i = 0; i < p.num_constraints(); ++i) {
    const Constraint& c = p.constraints[i];
    for (int r = c.row; r < c.row + c.rows(); ++r)
      for (SpMat::InnerIterator it(Jt, r); it; ++it) merged.emplace_back(i, it.index(), 1.0);
  }
  SpMat Jc(p.num_constraints(), p.A.cols());
  Jc.setFromTriplets(merged.begin(), merged.end());
  const SpMat JcTJc = SpMat(Jc.transpose()) * Jc;
  K_ = p.A + 0.0 * JcTJc;
  K_.makeCompressed();
  a_vals_.assign(K_.valuePtr(), K_.valuePtr() + K_.nonZeros());
  col_begin_.assign(1, 0);
  cols_.clear();
  dense_.clear();
  dense_begin_.assign(1, 0);
  pair_begin_.assign(1, 0);
  pair_index_.clear();
  std::size_t widest = 0;
  for (const Constraint& c : p.constraints) {
    std::vector<int> cs;
    for (int r = c.row; r < c.row + c.rows(); ++r)
      for (SpMat::InnerIterator it(Jt, r); it; ++it) cs.push_back(it.index());
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    const int k = static_cast<int>(cs.size());
    widest = std::max(widest, cs.size());
    for (int r = c.row; r < c.row + c.rows(); ++r)
      for (int a = 0; a < k; ++a) dense_.push_back(p.J.coeff(r, cs[a]));
    for (int b = 0; b < k; ++b)  // column-major K: entry (cs[a], cs[b]) lives in column cs[b]
      for (int a = 0; a < k; ++a) {
        const int* begin = K_.innerIndexPtr() + K_.outerIndexPtr()[cs[b]];
        const int* end = K_.innerIndexPtr() + K_.outerIndexPtr()[cs[b] + 1];
        const int* hit = std::lower_bound(begin, end, cs[a]);
        if (hit == end || *hit != cs[a])  // the pattern above contains every pair
          throw std::logic_error("PenalizedMatrix: entry missing from the pattern");
        pair_index_.push_back(static_cast<int>(hit - K_.innerIndexPtr()));
      }
    cols_.insert(cols_.end(), cs.begin(), cs.end());
    col_begin_.push_back(static_cast<int>(cols_.size()));
    dense_begin_.push_back(static_cast<int>(dense_.size()));
    pair_begin_.push_back(static_cast<int>(pair_index_.size()));
  }
  work_.assign(3 * widest, 0.0);
}

void PenalizedMatrix::Assemble(double beta, const std::vector<Mat3r>& blocks) {
  double* kv = K_.valuePtr();
  std::copy(a_vals_.begin(), a_vals_.end(), kv);
  const auto& cs = p_->constraints;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const int nr = cs[i].rows(), k = col_begin_[i + 1] - col_begin_[i];
    const double* Ji = dense_.data() + dense_begin_[i];
    const Mat3r& D = blocks[i];
    // work = β D J_i (nr × k, row-major).
    for (int r = 0; r < nr; ++r)
      for (int a = 0; a < k; ++a) {
        double s = 0.0;
        for (int q = 0; q < nr; ++q) s += D(r, q) * Ji[q * k + a];
        work_[r * k + a] = beta * s;
      }
    const int* idx = pair_index_.data() + pair_begin_[i];
    for (int b = 0; b < k; ++b)
      for (int a = 0; a < k; ++a) {
        double s = 0.0;  // (J_iᵀ β D J_i)(a, b)
        for (int r = 0; r < nr; ++r) s += Ji[r * k + a] * work_[r * k + b];
        kv[idx[b * k + a]] += s;
      }
  }
}

}  // namespace ncp
