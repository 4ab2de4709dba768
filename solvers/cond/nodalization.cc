#include "solvers/cond/nodalization.h"

#include <algorithm>
#include <cmath>

namespace ncp::cond {

namespace {

using RowMat = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

// Distinct columns touched by rows [r, r + rows) of J, ascending.
std::vector<int> ColumnsOf(const RowMat& J, int r, int rows) {
  std::vector<int> cols;
  for (int k = 0; k < rows; ++k)
    for (RowMat::InnerIterator it(J, r + k); it; ++it)
      if (it.value() != 0.0) cols.push_back(it.col());
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  return cols;
}

// The 3×3 block of rows [r, r+3) on columns c[0..2].
Eigen::Matrix3d BlockOf(const RowMat& J, int r, const int* c) {
  Eigen::Matrix3d B = Eigen::Matrix3d::Zero();
  for (int k = 0; k < 3; ++k)
    for (RowMat::InnerIterator it(J, r + k); it; ++it)
      for (int j = 0; j < 3; ++j)
        if (it.col() == c[j]) B(k, j) = it.value();
  return B;
}

bool Orthonormal(const Eigen::Matrix3d& R) {
  return (R * R.transpose() - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() <= kNodalTolerance;
}

// Fills c.kind, dofs and R when the contact's rows are nodal (002:13); false otherwise.
bool DetectNodal(const RowMat& J, NodalConstraint& c) {
  const std::vector<int> cols = ColumnsOf(J, c.row, 3);
  if (cols.size() == 3) {
    const Eigen::Matrix3d R = BlockOf(J, c.row, cols.data());
    if (!Orthonormal(R)) return false;
    c.kind = NodeKind::kNodalS;
    std::copy(cols.begin(), cols.end(), c.dof_a);
    c.R = R;
    return true;
  }
  if (cols.size() == 6) {
    const Eigen::Matrix3d Ra = BlockOf(J, c.row, cols.data());
    const Eigen::Matrix3d Rb = BlockOf(J, c.row, cols.data() + 3);
    if (!Orthonormal(Ra) || (Ra + Rb).cwiseAbs().maxCoeff() > kNodalTolerance) return false;
    c.kind = NodeKind::kNodalD;
    std::copy(cols.begin(), cols.begin() + 3, c.dof_a);
    std::copy(cols.begin() + 3, cols.end(), c.dof_b);
    c.R = Ra;
    return true;
  }
  return false;
}

// Jacobi estimate of a constraint's Delassus diagonal: Σ_j J_rj²/A_jj over its rows, averaged.
double JacobiDelassus(const RowMat& J, const Vec& Adiag, int row, int rows) {
  double d = 0.0;
  for (int k = 0; k < rows; ++k)
    for (RowMat::InnerIterator it(J, row + k); it; ++it)
      if (Adiag[it.col()] > 0) d += it.value() * it.value() / Adiag[it.col()];
  return d / rows;
}

}  // namespace

Nodalization Nodalize(const ContactProblem& p, double gamma) {
  Nodalization nd;
  const int n = p.num_dofs();
  nd.n = n;
  const RowMat J = p.J;
  const Vec Adiag = p.A.diagonal();
  std::vector<char> claimed(n, 0);

  // Pass 1: classify; nodal constraints claim their dofs, the rest are numbered as virtual.
  int next_virtual = n;
  for (const Constraint& src : p.constraints) {
    NodalConstraint c;
    c.type = src.type;
    c.mu = src.mu;
    c.row = src.row;
    c.rows = src.rows();
    if (c.type == ConstraintType::kContact && DetectNodal(J, c)) {
      bool free = true;
      for (int k = 0; k < 3; ++k) {
        free = free && !claimed[c.dof_a[k]];
        if (c.dof_b[0] >= 0) free = free && !claimed[c.dof_b[k]];
      }
      if (free) {
        for (int k = 0; k < 3; ++k) {
          claimed[c.dof_a[k]] = 1;
          if (c.dof_b[0] >= 0) claimed[c.dof_b[k]] = 1;
        }
      } else {
        c.kind = NodeKind::kVirtual;
      }
    }
    if (c.kind == NodeKind::kVirtual) {
      c.R.setIdentity();
      c.dof_b[0] = c.dof_b[1] = c.dof_b[2] = -1;
      for (int k = 0; k < 3; ++k) c.dof_a[k] = k < c.rows ? next_virtual + k : -1;
      next_virtual += c.rows;
      ++nd.virtual_nodes;
    } else {
      ++(c.kind == NodeKind::kNodalS ? nd.nodal_s : nd.nodal_d);
    }
    c.block = static_cast<int>(nd.block_ptr.size()) - 1;
    for (int k = 0; k < 3; ++k) {
      if (c.dof_a[k] >= 0) nd.block_dofs.push_back(c.dof_a[k]);
      if (c.dof_b[k] >= 0) nd.block_dofs.push_back(c.dof_b[k]);
    }
    nd.block_ptr.push_back(static_cast<int>(nd.block_dofs.size()));
    nd.constraints.push_back(c);
  }
  nd.dofs = next_virtual;

  nd.b = Vec::Zero(nd.dofs);
  nd.b.head(n) = p.b;
  if (nd.dofs == n) {  // every contact nodal: Â = A, and a copy is cheaper than a re-assembly
    nd.A = p.A;
    nd.A.makeCompressed();
    return nd;
  }

  // Pass 2: the augmented matrix of 002:15 with γ_i per virtual constraint.
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(p.A.nonZeros() + 4 * J.nonZeros() + (nd.dofs - n));
  for (int k = 0; k < p.A.outerSize(); ++k)
    for (SpMat::InnerIterator it(p.A, k); it; ++it) t.emplace_back(it.row(), it.col(), it.value());
  std::vector<Eigen::Triplet<double>> g;  // Γ^{1/2} Jᵥ, rows numbered by virtual dof
  for (NodalConstraint& c : nd.constraints) {
    if (c.kind != NodeKind::kVirtual) continue;
    const double d = JacobiDelassus(J, Adiag, c.row, c.rows);
    const double gi = d > 0 ? gamma / d : gamma;
    c.gamma = gi;
    for (int k = 0; k < c.rows; ++k) {
      const int w = c.dof_a[k];
      t.emplace_back(w, w, gi);
      for (RowMat::InnerIterator it(J, c.row + k); it; ++it) {
        t.emplace_back(w, it.col(), -gi * it.value());
        t.emplace_back(it.col(), w, -gi * it.value());
        g.emplace_back(w - n, it.col(), std::sqrt(gi) * it.value());
      }
    }
  }
  SpMat G(nd.dofs - n, n);
  G.setFromTriplets(g.begin(), g.end());
  const SpMat GtG = SpMat(G.transpose()) * G;
  for (int k = 0; k < GtG.outerSize(); ++k)
    for (SpMat::InnerIterator it(GtG, k); it; ++it) t.emplace_back(it.row(), it.col(), it.value());
  nd.A.resize(nd.dofs, nd.dofs);
  nd.A.setFromTriplets(t.begin(), t.end());
  nd.A.makeCompressed();
  return nd;
}

Vec Regularization(const ContactProblem& p, double r) {
  Vec R = Vec::Zero(p.num_rows());
  const RowMat J = p.J;
  const Vec Adiag = p.A.diagonal();
  for (const Constraint& c : p.constraints) {
    if (c.type == ConstraintType::kSoft) continue;
    R.segment(c.row, c.rows()).setConstant(r * JacobiDelassus(J, Adiag, c.row, c.rows()));
  }
  return R;
}

ContactProblem NodalizedProblem(const ContactProblem& p, const Nodalization& nd) {
  ContactProblem q;
  q.form = ProblemForm::kGlobal;
  q.A = nd.A;
  q.b = nd.b;
  q.e = p.e;
  q.constraints = p.constraints;
  q.meta = p.meta;
  std::vector<Eigen::Triplet<double>> t;
  for (const NodalConstraint& c : nd.constraints) {
    if (c.kind == NodeKind::kVirtual) {  // Ĵ_i = I on w_i
      for (int k = 0; k < c.rows; ++k) t.emplace_back(c.row + k, c.dof_a[k], 1.0);
      continue;
    }
    for (int r = 0; r < 3; ++r)  // Ĵ_i = R on node a, −R on node b
      for (int k = 0; k < 3; ++k) {
        t.emplace_back(c.row + r, c.dof_a[k], c.R(r, k));
        if (c.kind == NodeKind::kNodalD) t.emplace_back(c.row + r, c.dof_b[k], -c.R(r, k));
      }
  }
  q.J.resize(p.num_rows(), nd.dofs);
  q.J.setFromTriplets(t.begin(), t.end());
  return q;
}

}  // namespace ncp::cond
