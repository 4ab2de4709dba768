#include "solvers/nnewton/nnewton.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "solvers/common/dual_update.h"
#include "solvers/nnewton/ncp_function.h"

namespace ncp {

const SettingsTable<NNewtonSettings>& NNewtonSettings::Table() {
  using N = NNewtonSettings;
  static const auto t =
      SettingsTable<N>()
          .Real(&N::rho_scale, "rho_scale", {.min = 0.0, .max = 1e12, .min_open = true},
                "multiplies each constraint's velocity scale ρ_i = 1/(J_i diag(A)⁻¹ J_iᵀ) (row "
                "mean)")
          .Real(&N::regularization, "regularization", {.min = 0.0, .max = 1.0},
                "δ added to the diagonal of Φ_λ so G stays invertible when J is rank deficient")
          .Real(&N::armijo, "armijo", {.min = 0.0, .max = 0.5, .min_open = true, .max_open = true},
                "σ of the sufficient decrease ½‖F(x+αd)‖² ≤ ½‖F‖² + σ α ∇θᵀd")
          .Real(&N::min_alpha, "min_alpha",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "backtracking (α halved) gives up below this step length");
  return t;
}

Status NNewtonSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (p.form != ProblemForm::kGlobal) {
    message_ = "nnewton needs the global form (A, b, J); a local (W, q) problem has none";
    return Status::kNotApplicable;
  }
  p_ = &p;
  n_ = p.num_dofs();
  m_ = p.num_rows();
  set_ = NNewtonSettings::Table().From(s);
  const SpMat Jt = p.J.transpose();  // column r of Jt = row r of J
  const Vec adiag = p.A.diagonal();
  // Pattern of G: A, −Jᵀ, per constraint a dense rows × (its columns) block and rows × rows.
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(p.A.nonZeros() + 2 * p.J.nonZeros() + 9 * p.constraints.size());
  for (int j = 0; j < n_; ++j)
    for (SpMat::InnerIterator it(p.A, j); it; ++it) t.emplace_back(it.row(), j, it.value());
  for (int r = 0; r < m_; ++r)
    for (SpMat::InnerIterator it(Jt, r); it; ++it) t.emplace_back(it.index(), n_ + r, -it.value());
  rho_.assign(p.constraints.size(), 1.0);
  cols_.clear();
  col_begin_.assign(1, 0);
  dense_.clear();
  dense_begin_.assign(1, 0);
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Constraint& c = p.constraints[i];
    std::vector<int> cs;
    double w = 0.0;
    for (int r = c.row; r < c.row + c.rows(); ++r)
      for (SpMat::InnerIterator it(Jt, r); it; ++it) {
        cs.push_back(it.index());
        if (adiag[it.index()] > 0) w += it.value() * it.value() / adiag[it.index()];
      }
    w /= c.rows();
    rho_[i] = set_.rho_scale * (w > 0 && std::isfinite(w) ? 1.0 / w : 1.0);
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    for (int r = c.row; r < c.row + c.rows(); ++r)
      for (int col : cs) {
        dense_.push_back(p.J.coeff(r, col));
        t.emplace_back(n_ + r, col, 0.0);
      }
    for (int q = 0; q < c.rows(); ++q)
      for (int s2 = 0; s2 < c.rows(); ++s2) t.emplace_back(n_ + c.row + q, n_ + c.row + s2, 0.0);
    cols_.insert(cols_.end(), cs.begin(), cs.end());
    col_begin_.push_back(static_cast<int>(cols_.size()));
    dense_begin_.push_back(static_cast<int>(dense_.size()));
  }
  G_ = SpMat(n_ + m_, n_ + m_);
  G_.setFromTriplets(t.begin(), t.end());  // explicit zeros stay in the pattern
  G_.makeCompressed();
  auto index = [&](int row, int col) {
    const int* begin = G_.innerIndexPtr() + G_.outerIndexPtr()[col];
    const int* end = G_.innerIndexPtr() + G_.outerIndexPtr()[col + 1];
    const int* hit = std::lower_bound(begin, end, row);
    if (hit == end || *hit != row)
      throw std::logic_error("nnewton: entry missing from G's pattern");
    return static_cast<int>(hit - G_.innerIndexPtr());
  };
  bl_index_.clear();
  bl_begin_.assign(1, 0);
  br_index_.clear();
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Constraint& c = p.constraints[i];
    for (int q = 0; q < c.rows(); ++q)
      for (int a = col_begin_[i]; a < col_begin_[i + 1]; ++a)
        bl_index_.push_back(index(n_ + c.row + q, cols_[a]));
    bl_begin_.push_back(static_cast<int>(bl_index_.size()));
    for (int q = 0; q < 3; ++q)
      for (int s2 = 0; s2 < 3; ++s2)
        br_index_.push_back(q < c.rows() && s2 < c.rows() ? index(n_ + c.row + q, n_ + c.row + s2)
                                                          : -1);
  }
  lu_.analyzePattern(G_);
  x_ = Vec::Zero(n_ + m_);
  if (warm && warm->v.size() == n_) x_.head(n_) = warm->v;
  if (warm && warm->lambda.size() == m_) x_.tail(m_) = warm->lambda;
  for (Vec* y : {&f_, &d_, &xtry_, &ftry_, &g_}) *y = Vec::Zero(n_ + m_);
  u_ = Vec::Zero(m_);
  fnorm_ = alpha_ = 0.0;
  iter_ = ls_steps_ = ls_failures_ = gradient_steps_ = 0;
  factorizations_ = ls_evaluations_ = 0;
  return Status::kRunning;
}

double NNewtonSolver::Residual(const Vec& x, Vec& f) {
  const ContactProblem& p = *p_;
  f.head(n_).noalias() = p.A * x.head(n_);
  f.head(n_) -= p.b;
  f.head(n_).noalias() -= p.J.transpose() * x.tail(m_);
  u_.noalias() = p.J * x.head(n_);
  u_ += p.e;
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Constraint& c = p.constraints[i];
    NcpFunction(c, rho_[i], u_.data() + c.row, x.data() + n_ + c.row, p.e.data() + c.row,
                f.data() + n_ + c.row, nullptr, nullptr);
  }
  return f.norm();
}

const SpMat& NNewtonSolver::Jacobian(const Vec& x) {
  const ContactProblem& p = *p_;
  u_.noalias() = p.J * x.head(n_);
  u_ += p.e;
  double* gv = G_.valuePtr();
  double phi[3];
  Eigen::Matrix3d Du, Dl;
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Constraint& c = p.constraints[i];
    NcpFunction(c, rho_[i], u_.data() + c.row, x.data() + n_ + c.row, p.e.data() + c.row, phi, &Du,
                &Dl);
    const int nr = c.rows(), k = col_begin_[i + 1] - col_begin_[i];
    const double* Ji = dense_.data() + dense_begin_[i];
    const int* bl = bl_index_.data() + bl_begin_[i];
    for (int q = 0; q < nr; ++q)  // (Φ_u J_i)(q, a)
      for (int a = 0; a < k; ++a) {
        double sum = 0.0;
        for (int s = 0; s < nr; ++s) sum += Du(q, s) * Ji[s * k + a];
        gv[bl[q * k + a]] = sum;
      }
    const int* br = br_index_.data() + 9 * i;
    for (int q = 0; q < nr; ++q)
      for (int s = 0; s < nr; ++s)
        gv[br[3 * q + s]] = Dl(q, s) + (q == s ? set_.regularization : 0.0);
  }
  return G_;
}

bool NNewtonSolver::LineSearch(const Vec& d, double f0, double slope) {
  const double theta0 = 0.5 * f0 * f0;
  for (double alpha = 1.0; alpha >= set_.min_alpha; alpha *= 0.5) {
    xtry_ = x_ + alpha * d;
    const double ft = Residual(xtry_, ftry_);
    ++ls_evaluations_;
    if (std::isfinite(ft) && 0.5 * ft * ft <= theta0 + set_.armijo * alpha * slope) {
      x_.swap(xtry_);
      f_.swap(ftry_);
      fnorm_ = ft;
      alpha_ = alpha;
      return true;
    }
    ++ls_steps_;
  }
  return false;
}

Status NNewtonSolver::Iterate() {
  fnorm_ = Residual(x_, f_);
  if (!std::isfinite(fnorm_)) {
    message_ = "non-finite residual";
    return Status::kDiverged;
  }
  ++iter_;
  if (fnorm_ == 0.0) return Status::kRunning;
  Jacobian(x_);
  ++factorizations_;
  lu_.factorize(G_);
  bool moved = false;
  if (lu_.info() == Eigen::Success) {
    d_ = lu_.solve(f_);
    d_ = -d_;
    // G d = −F, so the merit's slope along d is −‖F‖² (G is the merit's generalized Jacobian).
    moved = AllFinite(d_) && LineSearch(d_, fnorm_, -fnorm_ * fnorm_);
  }
  if (!moved) {  // steepest descent on ½‖F‖²: ∇ = Gᵀ F
    g_.noalias() = G_.transpose() * f_;
    d_ = -g_;
    moved = LineSearch(d_, fnorm_, -g_.squaredNorm());
    if (moved)
      ++gradient_steps_;
    else
      ++ls_failures_;
  }
  if (!AllFinite(x_)) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

void NNewtonSolver::Current(Vec& v, Vec& lambda) const {
  v = x_.head(n_);
  lambda = x_.tail(m_);
}

std::vector<std::pair<std::string, double>> NNewtonSolver::Info() const {
  return {{"newton_iterations", static_cast<double>(iter_)},
          {"merit", fnorm_},
          {"alpha", alpha_},
          {"line_search_steps", static_cast<double>(ls_steps_)},
          {"gradient_steps", static_cast<double>(gradient_steps_)},
          {"line_search_failures", static_cast<double>(ls_failures_)}};
}

SolverStats NNewtonSolver::Stats() const {
  SolverStats s;
  // f_ is F(x_) after every iteration (the line search swaps the accepted trial's F in).
  if (iter_ > 0) {
    s.primal_residual = f_.tail(m_).norm();
    s.dual_residual = f_.head(n_).norm();
  }
  s.refactorizations = factorizations_;
  s.line_search_steps = ls_evaluations_;
  return s;
}

}  // namespace ncp
