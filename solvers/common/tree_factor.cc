#include "solvers/common/tree_factor.h"

#include <Eigen/Geometry>
#include <cmath>
#include <fmt/format.h>

namespace ncp {
namespace {

using Vec6 = Eigen::Matrix<double, 6, 1>;

// In-place inverse of the top-left k×k block of a symmetric positive definite matrix (k ≤ 6) by
// Cholesky; false when not positive definite.
bool InvertSpd(Mat6& D, int k) {
  double L[6][6] = {};
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = D(i, j);
      for (int t = 0; t < j; ++t) s -= L[i][t] * L[j][t];
      if (i == j) {
        if (!(s > 0.0) || !std::isfinite(s)) return false;
        L[i][i] = std::sqrt(s);
      } else {
        L[i][j] = s / L[j][j];
      }
    }
  }
  double Li[6][6] = {};  // L⁻¹ (lower triangular)
  for (int i = 0; i < k; ++i) {
    Li[i][i] = 1.0 / L[i][i];
    for (int j = 0; j < i; ++j) {
      double s = 0.0;
      for (int t = j; t < i; ++t) s -= L[i][t] * Li[t][j];
      Li[i][j] = s / L[i][i];
    }
  }
  for (int i = 0; i < k; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = 0.0;
      for (int t = i; t < k; ++t) s += Li[t][i] * Li[t][j];
      D(i, j) = D(j, i) = s;
    }
  return true;
}

}  // namespace

bool TreeFactor::Init(std::vector<Body> bodies, int n, Method method, std::string* why) {
  bodies_ = std::move(bodies);
  n_ = n;
  method_ = method;
  dof_parent_.assign(n, -2);
  std::vector<int> last_dof(bodies_.size(), -1);  // last dof on the path root → body
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Body& body = bodies_[b];
    if (body.parent >= static_cast<int>(b)) {
      *why = fmt::format("body {}: parent {} does not precede it", b, body.parent);
      return false;
    }
    int prev = body.parent >= 0 ? last_dof[body.parent] : -1;
    for (int k = 0; k < body.ndof; ++k) {
      const int d = body.dof + k;
      if (d < 0 || d >= n || dof_parent_[d] != -2 || d <= prev) {
        *why = fmt::format("body {}: dof {} is out of order for a tree factorization", b, d);
        return false;
      }
      dof_parent_[d] = prev;
      prev = d;
    }
    last_dof[b] = prev;
  }
  for (int d = 0; d < n; ++d)
    if (dof_parent_[d] == -2) {
      *why = fmt::format("dof {} belongs to no body's joint", d);
      return false;
    }
  inv_d_.assign(n, 0.0);
  // Twist transforms of the form [Rᵀ, −Rᵀ[p]; 0, Rᵀ] take the 24-multiply path.
  rigid_.assign(bodies_.size(), {});
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Mat6& X = bodies_[b].X;
    const Eigen::Matrix3d Rt = X.topLeftCorner<3, 3>();
    const Eigen::Matrix3d P = -X.topRightCorner<3, 3>();  // Rᵀ[p]
    const Eigen::Matrix3d skew = Rt.transpose() * P;      // [p]
    const bool ok =
        X.bottomLeftCorner<3, 3>().cwiseAbs().maxCoeff() == 0.0 &&
        (X.bottomRightCorner<3, 3>() - Rt).cwiseAbs().maxCoeff() < 1e-14 &&
        (Rt * Rt.transpose() - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-12 &&
        (skew + skew.transpose()).cwiseAbs().maxCoeff() < 1e-12;
    rigid_[b].ok = ok;
    rigid_[b].R = Rt.transpose();
    rigid_[b].p = Eigen::Vector3d(skew(2, 1), skew(0, 2), skew(1, 0));
  }
  Ic_.assign(bodies_.size(), Mat6::Zero());
  if (method == Method::kAba) {  // the recursion's own workspaces
    U_.assign(bodies_.size(), Mat6::Zero());
    Dinv_.assign(bodies_.size(), Mat6::Zero());
    pA_.assign(bodies_.size(), Vec6::Zero());
    acc_.assign(bodies_.size(), Vec6::Zero());
  }
  u_ = Eigen::VectorXd::Zero(n);
  anc_begin_.clear(), anc_.clear(), lval_.clear();
  desc_begin_.clear(), desc_.clear(), desc_at_.clear(), dval_.clear();
  K_.resize(0, 0), K0_.resize(0, 0);
  if (method == Method::kCrba) AllocateCrba();
  return true;
}

// The elimination's storage: ancestor lists and n × n matrices, O(n · depth) and O(n²) — only
// kCrba needs them, so that the O(bodies) recursion stays O(bodies) in memory and setup too.
void TreeFactor::AllocateCrba() {
  const int n = n_;
  anc_begin_.assign(n + 1, 0);
  anc_.clear();
  anc_.reserve(static_cast<std::size_t>(n) * 8);
  for (int d = 0; d < n; ++d) {
    for (int i = dof_parent_[d]; i >= 0; i = dof_parent_[i]) anc_.push_back(i);
    anc_begin_[d + 1] = static_cast<int>(anc_.size());
  }
  lval_.assign(anc_.size(), 0.0);
  // Columns of L: dof k's entry in each ancestor's list, k taken from the highest down.
  desc_begin_.assign(n + 1, 0);
  for (int a : anc_) ++desc_begin_[a + 1];
  for (int d = 0; d < n; ++d) desc_begin_[d + 1] += desc_begin_[d];
  std::vector<int> next(desc_begin_.begin(), desc_begin_.end() - 1);
  desc_.assign(anc_.size(), 0), desc_at_.assign(anc_.size(), 0);
  for (int k = n - 1; k >= 0; --k)
    for (int t = anc_begin_[k]; t < anc_begin_[k + 1]; ++t) {
      const int at = next[anc_[t]]++;
      desc_[at] = k, desc_at_[t] = at;
    }
  dval_.assign(anc_.size(), 0.0);
  K_ = K0_ = Eigen::MatrixXd::Zero(n, n);
}

void TreeFactor::set_method(Method m) {
  if (m == Method::kCrba && K_.rows() != n_) AllocateCrba();
  if (m == Method::kAba && U_.size() != bodies_.size()) {
    U_.assign(bodies_.size(), Mat6::Zero());
    Dinv_.assign(bodies_.size(), Mat6::Zero());
    pA_.assign(bodies_.size(), Vec6::Zero());
    acc_.assign(bodies_.size(), Vec6::Zero());
  }
  method_ = m;
}

bool TreeFactor::CoversPattern(const Eigen::MatrixXd& M, double tol) const {
  // Down each column (contiguous); only an entry above tol walks its row's ancestors.
  for (int c = 0; c < n_; ++c)
    for (int r = c + 1; r < n_; ++r) {
      if (!(std::abs(M(r, c)) > tol)) continue;
      int a = r;
      while (a > c) a = dof_parent_[a];  // parents precede their children; roots end at −1
      if (a != c) return false;
    }
  return true;
}

bool TreeFactor::Factorize(const Mat6* H, const double* diag) {
  return method_ == Method::kCrba ? FactorCrba(H, diag) : FactorAba(H, diag);
}

void TreeFactor::Assemble(const Mat6* H, Eigen::MatrixXd& K) {
  const int nb = num_bodies();
  for (int b = 0; b < nb; ++b) Ic_[b] = H[b];
  for (int b = nb - 1; b >= 0; --b) {
    const Body& body = bodies_[b];
    if (body.parent >= 0) Ic_[body.parent].noalias() += body.X.transpose() * Ic_[b] * body.X;
  }
  // K(b dofs, ancestor dofs) = S_aᵀ X…ᵀ Ic_b S_b, walking up the tree (lower triangle only).
  K.triangularView<Eigen::Lower>().setZero();
  Mat6 F;
  Vec6 f;
  for (int b = 0; b < nb; ++b) {
    const Body& body = bodies_[b];
    if (body.ndof == 0) continue;
    if (body.ndof == 1) {  // the common one-dof joint: carry one force column up the tree
      f.noalias() = Ic_[b] * body.S.col(0);
      K(body.dof, body.dof) += body.S.col(0).dot(f);
      for (int a = b; bodies_[a].parent >= 0;) {
        const Vec6 fa = bodies_[a].X.transpose() * f;
        f = fa;
        a = bodies_[a].parent;
        const Body& anc = bodies_[a];
        for (int c = 0; c < anc.ndof; ++c) K(body.dof, anc.dof + c) += f.dot(anc.S.col(c));
      }
      continue;
    }
    F.noalias() = Ic_[b] * body.S;
    for (int r = 0; r < body.ndof; ++r)
      for (int c = 0; c <= r; ++c) K(body.dof + r, body.dof + c) += body.S.col(r).dot(F.col(c));
    for (int a = b; bodies_[a].parent >= 0;) {
      const Mat6 Fa = bodies_[a].X.transpose() * F;
      F = Fa;
      a = bodies_[a].parent;
      const Body& anc = bodies_[a];
      for (int r = 0; r < body.ndof; ++r)
        for (int c = 0; c < anc.ndof; ++c)
          K(body.dof + r, anc.dof + c) += F.col(r).dot(anc.S.col(c));
    }
  }
}

bool TreeFactor::FactorizeSum(const Eigen::MatrixXd& A, double beta, const Eigen::MatrixXd& C) {
  for (int c = 0; c < n_; ++c)
    for (int r = c; r < n_; ++r) K_(r, c) = A(r, c) + beta * C(r, c);
  return Eliminate();
}

bool TreeFactor::FactorCrba(const Mat6* H, const double* diag) {
  Assemble(H, K_);
  if (diag)
    for (int k = 0; k < n_; ++k) K_(k, k) += diag[k];
  return Eliminate();
}

bool TreeFactor::Eliminate() {
  K0_.triangularView<Eigen::Lower>() = K_;
  // LTDL with branch-induced sparsity: K = Lᵀ D L, D on the diagonal, L below it.
  for (int k = n_ - 1; k >= 0; --k) {
    const double dk = K_(k, k);
    if (!(dk > 0.0) || !std::isfinite(dk)) return false;
    for (int i = dof_parent_[k]; i >= 0; i = dof_parent_[i]) {
      const double a = K_(k, i) / dk;
      for (int j = i; j >= 0; j = dof_parent_[j]) K_(i, j) -= a * K_(k, j);
      K_(k, i) = a;
    }
  }
  // Flat copy of L along each dof's ancestor path and of 1/D: the solves then stream arrays.
  for (int k = 0; k < n_; ++k) {
    inv_d_[k] = 1.0 / K_(k, k);
    for (int t = anc_begin_[k]; t < anc_begin_[k + 1]; ++t)
      lval_[t] = dval_[desc_at_[t]] = K_(k, anc_[t]);
  }
  return true;
}

bool TreeFactor::FactorAba(const Mat6* H, const double* diag) {
  const int nb = num_bodies();
  for (int b = 0; b < nb; ++b) Ic_[b] = H[b];
  Mat6 Ia;
  for (int b = nb - 1; b >= 0; --b) {
    const Body& body = bodies_[b];
    const int k = body.ndof;
    U_[b].noalias() = Ic_[b] * body.S;  // columns ≥ k are zero
    Mat6& D = Dinv_[b];
    D.setZero();
    for (int r = 0; r < k; ++r)
      for (int c = 0; c < k; ++c) D(r, c) = body.S.col(r).dot(U_[b].col(c));
    if (diag)
      for (int r = 0; r < k; ++r) D(r, r) += diag[body.dof + r];
    if (k > 0 && !InvertSpd(D, k)) return false;
    if (body.parent >= 0) {
      Ia = Ic_[b];
      Ia.noalias() -= U_[b] * D * U_[b].transpose();
      Ic_[body.parent].noalias() += body.X.transpose() * Ia * body.X;
    } else if (k < 6) {
      // A root without a full floating joint: the motion it cannot make must be resisted by
      // the world, which is fine; nothing is propagated.
    }
  }
  return true;
}

void TreeFactor::Solve(const double* r, double* x) {
  const int nb = num_bodies();
  if (method_ == Method::kCrba) {
    double* u = u_.data();
    const int* desc = desc_.data();
    const double* dl = dval_.data();
    for (int a = n_ - 1; a >= 0; --a) {  // Lᵀ z = r, z_a from its descendants, already final
      double s = r[a];
      for (int t = desc_begin_[a], end = desc_begin_[a + 1]; t < end; ++t) s -= dl[t] * u[desc[t]];
      u[a] = s;
    }
    const int* anc = anc_.data();
    const double* l = lval_.data();
    const int* begin = anc_begin_.data();
    const double* inv_d = inv_d_.data();
    for (int k = 0; k < n_; ++k) {  // D, then L x = z
      // Two partial sums: one chain of dependent subtractions per dof was the loop's bound.
      double s0 = u[k] * inv_d[k], s1 = 0.0;
      int t = begin[k];
      for (const int end = begin[k + 1]; t + 1 < end; t += 2)
        s0 -= l[t] * x[anc[t]], s1 += l[t + 1] * x[anc[t + 1]];
      if (t < begin[k + 1]) s0 -= l[t] * x[anc[t]];
      x[k] = s0 - s1;
    }
    return;
  }
  // ABA: bias forces up the tree, then accelerations down (RBDA Table 7.1 with c = 0).
  for (int b = 0; b < nb; ++b) pA_[b].setZero();
  Vec6 pa;
  for (int b = nb - 1; b >= 0; --b) {
    const Body& body = bodies_[b];
    const int k = body.ndof;
    double ub[6] = {};
    for (int t = 0; t < k; ++t) ub[t] = r[body.dof + t] - body.S.col(t).dot(pA_[b]);
    for (int t = 0; t < k; ++t) u_[body.dof + t] = ub[t];
    if (body.parent >= 0) {
      pa = pA_[b];
      for (int t = 0; t < k; ++t) {
        double s = 0.0;  // (D⁻¹ u)_t
        for (int q = 0; q < k; ++q) s += Dinv_[b](t, q) * ub[q];
        pa += U_[b].col(t) * s;
      }
      pA_[body.parent].noalias() += body.X.transpose() * pa;
    }
  }
  for (int b = 0; b < nb; ++b) {
    const Body& body = bodies_[b];
    const int k = body.ndof;
    Vec6 a = Vec6::Zero();
    if (body.parent >= 0) a.noalias() = body.X * acc_[body.parent];
    double w[6];
    for (int t = 0; t < k; ++t) w[t] = u_[body.dof + t] - U_[b].col(t).dot(a);
    for (int t = 0; t < k; ++t) {
      double s = 0.0;
      for (int q = 0; q < k; ++q) s += Dinv_[b](t, q) * w[q];
      x[body.dof + t] = s;
      a += body.S.col(t) * s;
    }
    acc_[b] = a;
  }
}

void TreeFactor::BodyTwists(const double* v, double* V) const {
  for (int b = 0; b < num_bodies(); ++b) {
    const Body& body = bodies_[b];
    Eigen::Map<Vec6> Vb(V + 6 * b);
    if (body.parent < 0) {
      Vb.setZero();
    } else if (rigid_[b].ok) {  // [Rᵀ(v + ω × p); Rᵀ ω]
      const Eigen::Map<const Eigen::Vector3d> v(V + 6 * body.parent), w(V + 6 * body.parent + 3);
      const Eigen::Matrix3d& R = rigid_[b].R;
      Vb.head<3>().noalias() = R.transpose() * (v + w.cross(rigid_[b].p));
      Vb.tail<3>().noalias() = R.transpose() * w;
    } else {
      Vb.noalias() = body.X * Eigen::Map<const Vec6>(V + 6 * body.parent);
    }
    for (int t = 0; t < body.ndof; ++t) Vb += body.S.col(t) * v[body.dof + t];
  }
}

void TreeFactor::JointForces(double* F, double* tau) const {
  for (int b = num_bodies() - 1; b >= 0; --b) {
    const Body& body = bodies_[b];
    Eigen::Map<Vec6> Fb(F + 6 * b);
    for (int t = 0; t < body.ndof; ++t) tau[body.dof + t] = body.S.col(t).dot(Fb);
    if (body.parent >= 0)
      Eigen::Map<Vec6>(F + 6 * body.parent).noalias() += body.X.transpose() * Fb;
  }
}

void TreeFactor::JointForces2(Eigen::Matrix<double, 6, 2>* F, double* tau1, double* tau2) const {
  for (int b = num_bodies() - 1; b >= 0; --b) {
    const Body& body = bodies_[b];
    for (int t = 0; t < body.ndof; ++t) {
      const Eigen::Matrix<double, 1, 2> st = body.S.col(t).transpose() * F[b];
      tau1[body.dof + t] = st[0], tau2[body.dof + t] = st[1];
    }
    if (body.parent < 0) continue;
    if (rigid_[b].ok) {  // Xᵀ [f; n] = [R f; p × (R f) + R n]
      const Eigen::Matrix3d& R = rigid_[b].R;
      const Eigen::Matrix<double, 3, 2> Rf = R * F[b].topRows<3>();
      F[body.parent].topRows<3>() += Rf;
      F[body.parent].bottomRows<3>().noalias() += R * F[b].bottomRows<3>();
      F[body.parent].bottomRows<3>().col(0) += rigid_[b].p.cross(Rf.col(0));
      F[body.parent].bottomRows<3>().col(1) += rigid_[b].p.cross(Rf.col(1));
    } else {
      F[body.parent].noalias() += body.X.transpose() * F[b];
    }
  }
}

WorkCount TreeFactor::SolveWork() const {
  const double n = n_, nb = static_cast<double>(bodies_.size());
  if (method_ == Method::kCrba) {
    const double anc = static_cast<double>(anc_.size());
    return {2.0 * anc * (sizeof(double) + sizeof(int)) + 4.0 * n * sizeof(double),
            4.0 * anc + 2.0 * n};
  }
  return {2.0 * nb * 3.0 * sizeof(Mat6) + 4.0 * n * sizeof(double), 2.0 * nb * 3.0 * 72.0};
}

WorkCount TreeFactor::PassWork() const {
  const double n = n_, nb = static_cast<double>(bodies_.size());
  return {nb * (sizeof(Mat6) + 6.0 * sizeof(double)) + n * (6.0 + 1.0) * sizeof(double),
          nb * 72.0 + 12.0 * n};
}

}  // namespace ncp
