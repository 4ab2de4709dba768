#include "solvers/redmax/tree_operator.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "solvers/redmax/reduced_operator.h"

namespace ncp {

using Vec6 = Eigen::Matrix<double, 6, 1>;

bool TreeOperator::Init(const ContactProblem& p, const std::vector<int>& soft, BodyTrees& trees,
                        std::string* why) {
  trees_ = &trees;
  const Structure& st = p.structure;
  const int ms = static_cast<int>(soft.size());
  std::vector<int> slot(p.num_constraints(), -1);
  for (int s = 0; s < ms; ++s) slot[soft[s]] = s;
  std::vector<std::vector<int>> blocks_of(ms);
  for (std::size_t k = 0; k < st.blocks.size(); ++k) {
    const int s = slot[st.blocks[k].constraint];
    if (s < 0) continue;
    if (st.blocks[k].jacobian.rows() != 1 || st.blocks[k].jacobian.cols() != 6) {
      *why = fmt::format("constraint {}: a structure block is not 1 × 6", st.blocks[k].constraint);
      return false;
    }
    blocks_of[s].push_back(static_cast<int>(k));
  }
  row_begin_.assign(ms + 1, 0), block_body_.clear(), block_.clear();
  d_.resize(ms);
  for (int s = 0; s < ms; ++s) {
    d_[s] = p.constraints[soft[s]].damping;
    for (int k : blocks_of[s]) {
      block_body_.push_back(trees.grouped(st.blocks[k].body));
      for (int c = 0; c < 6; ++c) block_.push_back(st.blocks[k].jacobian(0, c));
    }
    row_begin_[s + 1] = static_cast<int>(block_body_.size());
  }
  u_.assign(ms, 0.0);
  V_.assign(6 * static_cast<std::size_t>(trees.bodies()), 0.0);
  if (ms == 0) return true;  // no soft rows: nothing to compare (and no largest |J_s x|)
  // The blocks must reproduce the soft rows of J: compare J_s x both ways.
  std::vector<int> rows(ms);
  for (int s = 0; s < ms; ++s) rows[s] = p.constraints[soft[s]].row;
  const SpMat Js = SelectRows(p.J, rows);
  const int n = p.num_dofs();
  Vec x(n), jx(ms);
  for (int trial = 0; trial < 2; ++trial) {
    for (int k = 0; k < n; ++k) x[k] = trial == 0 ? std::sin(1.0 + k) : std::cos(0.7 * k + 0.3);
    jx.noalias() = Js * x;
    trees.Twists(x, V_.data());
    RowVelocities();
    const Eigen::Map<const Vec> u(u_.data(), ms);
    const double scale = std::max(jx.cwiseAbs().maxCoeff(), 1e-300);
    const double diff = (jx - u).cwiseAbs().maxCoeff();
    if (!(diff <= 1e-9 * scale)) {
      *why = fmt::format(
          "the soft rows' structure blocks differ from J by {:.3e} (relative "
          "{:.3e} > 1e-9)",
          diff, diff / scale);
      return false;
    }
  }
  return true;
}

void TreeOperator::RowVelocities() {
  const int ms = static_cast<int>(d_.size());
  for (int s = 0; s < ms; ++s) {
    double u = 0.0;
    for (int k = row_begin_[s]; k < row_begin_[s + 1]; ++k) {
      const double* J = block_.data() + 6 * k;
      const double* V = V_.data() + 6 * block_body_[k];
      for (int c = 0; c < 6; ++c) u += J[c] * V[c];
    }
    u_[s] = u;
  }
}

void TreeOperator::SoftRates(const Vec& x, double* u) {
  trees_->Twists(x, V_.data());
  RowVelocities();
  std::copy(u_.begin(), u_.end(), u);
}

void TreeOperator::Apply(const Vec& x, Vec& y) {
  trees_->Twists(x, V_.data());
  RowVelocities();  // before V_ is overwritten by forces
  for (int b = 0; b < trees_->bodies(); ++b) {
    Eigen::Map<Vec6> Vb(V_.data() + 6 * b);
    const Vec6 F = trees_->inertia(b) * Vb;
    Vb = F;
  }
  const int ms = static_cast<int>(d_.size());
  for (int s = 0; s < ms; ++s) {
    const double f = d_[s] * u_[s];
    for (int k = row_begin_[s]; k < row_begin_[s + 1]; ++k) {
      const double* J = block_.data() + 6 * k;
      double* F = V_.data() + 6 * block_body_[k];
      for (int c = 0; c < 6; ++c) F[c] += J[c] * f;
    }
  }
  trees_->Forces(V_.data(), y);
}

}  // namespace ncp
