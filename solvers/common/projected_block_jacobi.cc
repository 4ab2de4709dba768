#include "solvers/common/projected_block_jacobi.h"

#include "solvers/common/work_count.h"

#include <algorithm>

namespace ncp {

void ProjectedBlockJacobi::Init(const ContactProblem& p, const std::vector<int>& soft,
                                BodyTrees& trees) {
  std::vector<double> d(soft.size());
  for (std::size_t k = 0; k < soft.size(); ++k) d[k] = p.constraints[soft[k]].damping;
  Init(p, soft, d, trees);
}

void ProjectedBlockJacobi::SetScale(double s) {
  for (std::size_t b = 0; b < H_.size(); ++b)
    H_[b] = trees_->inertia(static_cast<int>(b)) + s * S_[b];
  for (std::size_t k = 0; k < diag_.size(); ++k) diag_[k] = s * diag_unit_[k];
}

void ProjectedBlockJacobi::Init(const ContactProblem& p, const std::vector<int>& soft,
                                const std::vector<double>& weights, BodyTrees& trees) {
  trees_ = &trees;
  const Structure& st = p.structure;
  S_.assign(trees.bodies(), Mat6::Zero());
  H_.resize(trees.bodies());
  // H_b += d_i J_{i,b}ᵀ J_{i,b}, the blocks of one (constraint, body) pair summed first.
  // A soft row on a single dof (a joint spring: 003's reduced stiffness and damping) enters P
  // exactly, on that dof's diagonal (003 Alg. 1 line 6), not through its body blocks, which
  // would drop the body–parent cross terms of the joint's relative twist.
  diag_unit_.assign(p.num_dofs(), 0.0);
  diag_.assign(p.num_dofs(), 0.0);
  std::vector<int> nnz(p.num_rows(), 0), col(p.num_rows(), -1);
  std::vector<double> val(p.num_rows(), 0.0);
  for (int c = 0; c < p.J.outerSize(); ++c)
    for (SpMat::InnerIterator it(p.J, c); it; ++it)
      if (it.value() != 0.0) ++nnz[it.row()], col[it.row()] = c, val[it.row()] = it.value();
  std::vector<char> is_soft(p.num_constraints(), 0);
  std::vector<double> weight(p.num_constraints(), 0.0);
  for (std::size_t k = 0; k < soft.size(); ++k) {
    const int i = soft[k];
    const Constraint& c = p.constraints[i];
    weight[i] = weights[k];
    // Only a one-row constraint on one dof enters exactly; a contact's three rows go through
    // its bodies' blocks.
    if (c.rows() == 1 && nnz[c.row] == 1) {
      diag_unit_[col[c.row]] += weights[k] * val[c.row] * val[c.row];
    } else if (c.rows() > 1 || nnz[c.row] > 1) {
      is_soft[i] = 1;
    }
  }
  std::vector<std::vector<int>> blocks_of(p.num_constraints());
  for (std::size_t k = 0; k < st.blocks.size(); ++k)
    if (is_soft[st.blocks[k].constraint]) blocks_of[st.blocks[k].constraint].push_back(k);
  for (int i : soft) {
    if (!is_soft[i]) continue;
    std::vector<int>& ks = blocks_of[i];
    std::stable_sort(ks.begin(), ks.end(),
                     [&](int a, int c) { return st.blocks[a].body < st.blocks[c].body; });
    const double d = weight[i];
    for (std::size_t t = 0; t < ks.size();) {
      const int body = st.blocks[ks[t]].body;
      Eigen::MatrixXd Jib = st.blocks[ks[t]].jacobian;
      for (++t; t < ks.size() && st.blocks[ks[t]].body == body; ++t)
        Jib += st.blocks[ks[t]].jacobian;
      S_[trees.grouped(body)].noalias() += d * (Jib.transpose() * Jib);
    }
  }
  SetScale(1.0);
}

bool ProjectedBlockJacobi::Factorize() {
  for (int j = 0; j < trees_->subsystems(); ++j)
    if (!trees_->tree(j).Factorize(H_.data() + trees_->body_begin(j),
                                   diag_.data() + trees_->dof_begin(j)))
      return false;
  return true;
}

void ProjectedBlockJacobi::Apply(const Vec& r, Vec& z) {
  for (int j = 0; j < trees_->subsystems(); ++j)
    trees_->tree(j).Solve(r.data() + trees_->dof_begin(j), z.data() + trees_->dof_begin(j));
}

WorkCount ProjectedBlockJacobi::ApplyWork() const {
  WorkCount w{0.0, 0.0};
  for (int j = 0; j < trees_->subsystems(); ++j) w = w + trees_->tree(j).SolveWork();
  return w;
}

Eigen::MatrixXd ProjectedBlockJacobi::Assembled() {
  int n = 0;
  for (int j = 0; j < trees_->subsystems(); ++j)
    n = std::max(n, trees_->dof_begin(j) + trees_->dof_count(j));
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(n, n);
  for (int j = 0; j < trees_->subsystems(); ++j) {
    const int nj = trees_->dof_count(j);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(nj, nj);
    trees_->tree(j).Assemble(H_.data() + trees_->body_begin(j), K);
    const Eigen::MatrixXd L = K.triangularView<Eigen::StrictlyLower>();
    Eigen::MatrixXd full = L + L.transpose();
    full.diagonal() = K.diagonal() + Eigen::Map<const Vec>(diag_.data() + trees_->dof_begin(j), nj);
    P.block(trees_->dof_begin(j), trees_->dof_begin(j), nj, nj) = full;
  }
  return P;
}

}  // namespace ncp
