#include "solvers/local_newton/local_newton.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "solvers/common/dual_update.h"
#include "common/error.h"

namespace ncp {

namespace {

// A pivot below this fraction of the largest one makes the dense LU "singular": W is often rank
// deficient (stacks), and a sticking block's rows of H are then rows of W.
constexpr double kPivotTol = 1e-12;
// Dense LU without blocking up to this size (no allocation; ~m³/3 flops are cheap there).
constexpr int kUnblockedRows = 1024;
constexpr double kSigmaMin = 1e-10, kSigmaMax = 1e8;  // × mean W_ii

// Alart–Curnier function of one constraint and its generalized Jacobian: φ and the 3×3 blocks
// Dr = ∂φ/∂r, Du = ∂φ/∂u (rows beyond c.rows() unused). rho[k]: the row's ρ.
void AlartCurnier(const Constraint& c, const double* rho, const double* r, const double* u,
                  double* phi, double Dr[3][3], double Du[3][3]) {
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) Dr[a][b] = Du[a][b] = 0.0;
  switch (c.type) {
    case ConstraintType::kBilateral:
    case ConstraintType::kSoft:  // folded: an equality row of the dual
      phi[0] = rho[0] * u[0];
      Du[0][0] = rho[0];
      return;
    case ConstraintType::kUnilateral: {
      const double x = r[0] - rho[0] * u[0];
      if (x > 0) {
        phi[0] = rho[0] * u[0];
        Du[0][0] = rho[0];
      } else {
        phi[0] = r[0];
        Dr[0][0] = 1.0;
      }
      return;
    }
    case ConstraintType::kContact:
      break;
    case ConstraintType::kJointFriction:  // refused before Setup (NotApplicableReason)
      throw Error("joint-friction constraint: not handled by this solver");
  }
  const double xn = r[0] - rho[0] * u[0];
  const bool active = xn > 0;
  if (active) {
    phi[0] = rho[0] * u[0];
    Du[0][0] = rho[0];
  } else {
    phi[0] = r[0];
    Dr[0][0] = 1.0;
  }
  const double radius = c.mu * (active ? xn : 0.0);
  const double x1 = r[1] - rho[1] * u[1], x2 = r[2] - rho[1] * u[2];
  const double xt = std::hypot(x1, x2);
  if (xt <= radius) {  // sticking: Π = x_T, φ_T = ρ_T u_T
    phi[1] = rho[1] * u[1];
    phi[2] = rho[1] * u[2];
    Du[1][1] = Du[2][2] = rho[1];
    return;
  }
  // Sliding (or separated, radius 0): Π = radius · n̂, n̂ = x_T/‖x_T‖;
  // ∂Π/∂x_T = (radius/‖x_T‖)(I − n̂n̂ᵀ), ∂Π/∂radius = n̂, radius' = μ (∂x_N) when x_N > 0.
  const double n1 = x1 / xt, n2 = x2 / xt, s = radius / xt;
  phi[1] = r[1] - radius * n1;
  phi[2] = r[2] - radius * n2;
  const double P[2][2] = {{s * (1 - n1 * n1), -s * n1 * n2}, {-s * n1 * n2, s * (1 - n2 * n2)}};
  const double nh[2] = {n1, n2};
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      Dr[1 + a][1 + b] = (a == b ? 1.0 : 0.0) - P[a][b];
      Du[1 + a][1 + b] = P[a][b] * rho[1];
    }
    if (active) {
      Dr[1 + a][0] = -c.mu * nh[a];
      Du[1 + a][0] = c.mu * rho[0] * nh[a];
    }
  }
}

}  // namespace

const SettingsTable<LocalNewtonSettings>& LocalNewtonSettings::Table() {
  using L = LocalNewtonSettings;
  static const auto t =
      SettingsTable<L>()
          .Real(&L::rho_scale, "rho_scale", {.min = 0.0, .max = 1e12, .min_open = true},
                "multiplies ρ_N = 1/W_NN and ρ_T = 2/(W_t1t1 + W_t2t2) of the Alart–Curnier "
                "function")
          .Real(&L::armijo, "armijo", {.min = 0.0, .max = 0.5, .min_open = true, .max_open = true},
                "c of the sufficient decrease θ(r + αd) ≤ max of recent θ − c α ‖Φ‖²")
          .Real(&L::min_alpha, "min_alpha",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "backtracking (α halved) fails below this step length")
          .Int(&L::nonmonotone, "nonmonotone", {.min = 1.0, .max = 50.0},
               "the line search compares with the largest of this many recent merits (1: "
               "monotone)")
          .Int(&L::stall_steps, "stall_steps", {.min = 1.0, .max = 1e6},
               "Newton steps without a 10 % drop of the best ‖Φ‖ before the proximal fallback")
          .Int(&L::prox_inner_steps, "prox_inner_steps", {.min = 1.0, .max = 1e6},
               "inner Newton steps on one proximal subproblem before σ is multiplied by 10")
          .Choice<kProximals>(&L::proximal, "proximal",
                              "fallback: proximal mode once Newton fails; always: from the first "
                              "iteration")
          .Real(&L::prox_sigma, "prox_sigma", {.min = 0.0, .max = 1e6, .min_open = true},
                "proximal σ at residual ‖ρ q‖, relative to the mean diagonal of W (σ ∝ residual)")
          .Real(&L::prox_shrink, "prox_shrink",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "σ's factor κ (≥ 1, ×10 on inner failures) shrinks by this after an easy "
                "subproblem")
          .Real(&L::prox_inner_tol, "prox_inner_tol",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "the center moves when the inner residual is below this fraction of ‖Φ(r_c)‖")
          .Real(&L::diag_floor, "diag_floor",
                {.min = 0.0, .max = 1.0, .min_open = true, .max_open = true},
                "diagonals of W below this fraction of max W_ii are raised to it (ρ stays finite)")
          .Choice<kLinearSolvers>(&L::linear_solver, "linear_solver",
                                  "auto: dense LU when m ≤ 300 or W has ≥ 10 % nonzeros, else "
                                  "sparse LU");
  return t;
}

Status LocalNewtonSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = LocalNewtonSettings::Table().From(s);
  if (!SetupDual(p, warm)) return Status::kFailed;
  m_ = dual_.rows();
  const auto& cs = *dual_.constraints;

  // Floored diagonal; one tangential value per contact (the mean of its two diagonals).
  const double dmax = m_ > 0 ? dual_.diag.cwiseAbs().maxCoeff() : 1.0;
  const double floor = dmax > 0 && std::isfinite(dmax) ? set_.diag_floor * dmax : 1.0;
  dg_.assign(m_, 1.0);
  for (int i = 0; i < m_; ++i) dg_[i] = std::max(dual_.diag[i], floor);
  for (const Constraint& c : cs)
    if (c.type == ConstraintType::kContact)
      dg_[c.row + 1] = dg_[c.row + 2] = 0.5 * (dg_[c.row + 1] + dg_[c.row + 2]);
  scale_ = 0.0;
  for (double v : dg_) scale_ += v;
  scale_ = m_ > 0 && scale_ > 0 && std::isfinite(scale_) ? scale_ / m_ : 1.0;

  using LinearSolver = LocalNewtonSettings::LinearSolver;
  const LinearSolver choice = set_.linear_solver;
  const double nnz = static_cast<double>(dual_.W.nonZeros());
  dense_ = choice == LinearSolver::kDense ||
           (choice == LinearSolver::kAuto && (m_ <= 300 || nnz >= 0.1 * m_ * double(m_)));
  if (dense_) {
    Wd_ = RowMat(dual_.W.transpose());  // row i of W
    H_ = RowMat::Zero(m_, m_);
    perm_.resize(m_);
    Wt_ = SpMat();
    Hs_ = SpMat();
  } else {
    Wt_ = dual_.W;
    Wd_ = RowMat();
    H_ = RowMat();
    // Per constraint: the union of its rows' patterns and the block's own columns.
    cols_.clear();
    col_begin_.assign(1, 0);
    wvals_.clear();
    val_begin_.assign(1, 0);
    diag_slot_.assign(m_, -1);
    std::vector<Eigen::Triplet<double>> t;
    for (const Constraint& c : cs) {
      std::vector<int> u;
      for (int g = c.row; g < c.row + c.rows(); ++g) {
        u.push_back(g);
        for (SpMat::InnerIterator it(Wt_, g); it; ++it) u.push_back(it.index());
      }
      std::sort(u.begin(), u.end());
      u.erase(std::unique(u.begin(), u.end()), u.end());
      const int k = static_cast<int>(u.size());
      for (int g = c.row; g < c.row + c.rows(); ++g) {
        diag_slot_[g] = static_cast<int>(std::lower_bound(u.begin(), u.end(), g) - u.begin());
        for (int j = 0; j < k; ++j) {
          wvals_.push_back(Wt_.coeff(u[j], g));  // W(g, u[j])
          t.emplace_back(g, u[j], 0.0);
        }
      }
      cols_.insert(cols_.end(), u.begin(), u.end());
      col_begin_.push_back(static_cast<int>(cols_.size()));
      val_begin_.push_back(static_cast<int>(wvals_.size()));
    }
    Hs_ = SpMat(m_, m_);
    Hs_.setFromTriplets(t.begin(), t.end());  // explicit zeros stay in the pattern
    Hs_.makeCompressed();
    hidx_.clear();
    for (std::size_t i = 0; i < cs.size(); ++i) {
      const Constraint& c = cs[i];
      for (int g = c.row; g < c.row + c.rows(); ++g)
        for (int a = col_begin_[i]; a < col_begin_[i + 1]; ++a) {
          const int col = cols_[a];
          const int* b = Hs_.innerIndexPtr() + Hs_.outerIndexPtr()[col];
          const int* e = Hs_.innerIndexPtr() + Hs_.outerIndexPtr()[col + 1];
          const int* hit = std::lower_bound(b, e, g);
          if (hit == e || *hit != g)
            throw std::logic_error("local-newton: entry missing from the Newton pattern");
          hidx_.push_back(static_cast<int>(hit - Hs_.innerIndexPtr()));
        }
    }
    slu_.analyzePattern(Hs_);
  }
  for (Vec* y : {&u_, &phi_, &d_, &rtry_, &utry_, &phitry_, &rc_}) *y = Vec::Zero(m_);
  prox_ = false;
  sigma_ = 0.0;
  newton_steps_ = ls_steps_ = ls_failures_ = center_updates_ = prox_entries_ = factor_failures_ = 0;
  fnorm_ = Residual(lambda_, u_, phi_);
  // Below this ‖Φ‖ a step only moves rounding errors (‖Φ(0)‖ ~ ‖ρ q‖).
  phi_floor_ = 0.0;
  for (int i = 0; i < m_; ++i) phi_floor_ += std::pow(set_.rho_scale * dual_.q[i] / dg_[i], 2);
  phi_ref_ = std::sqrt(phi_floor_);
  phi_floor_ = 1e-14 * phi_ref_;
  best_ = fnorm_;
  since_best_ = 0;
  ResetMemory(0.5 * fnorm_ * fnorm_);
  if (set_.proximal == LocalNewtonSettings::Proximal::kAlways) EnterProx();
  return Status::kRunning;
}

double LocalNewtonSolver::Residual(const Vec& r, Vec& u, Vec& phi) const {
  if (dense_)
    u.noalias() = Wd_ * r;
  else
    u.noalias() = Wt_.transpose() * r;
  u += dual_.q;
  if (sigma_ > 0) u += sigma_ * (r - rc_);
  double rho[3], Dr[3][3], Du[3][3];
  for (const Constraint& c : *dual_.constraints) {
    for (int k = 0; k < c.rows(); ++k) rho[k] = set_.rho_scale / dg_[c.row + k];
    AlartCurnier(c, rho, r.data() + c.row, u.data() + c.row, phi.data() + c.row, Dr, Du);
  }
  return phi.norm();
}

bool LocalNewtonSolver::FactorizeJacobian(const Vec& r, const Vec& u) {
  const auto& cs = *dual_.constraints;
  double rho[3], phi[3], Dr[3][3], Du[3][3];
  double* hv = dense_ ? nullptr : Hs_.valuePtr();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Constraint& c = cs[i];
    const int r0 = c.row, nr = c.rows();
    for (int k = 0; k < nr; ++k) rho[k] = set_.rho_scale / dg_[r0 + k];
    AlartCurnier(c, rho, r.data() + r0, u.data() + r0, phi, Dr, Du);
    // Row a of H = Σ_b Du(a,b) (row r0+b of W + σ e_{r0+b}) + Dr(a, ·) on the block.
    if (dense_) {
      for (int a = 0; a < nr; ++a) {
        auto h = H_.row(r0 + a);
        h.noalias() = Du[a][0] * Wd_.row(r0);
        for (int b = 1; b < nr; ++b) h.noalias() += Du[a][b] * Wd_.row(r0 + b);
        for (int b = 0; b < nr; ++b) h[r0 + b] += Dr[a][b] + sigma_ * Du[a][b];
      }
    } else {
      const int k = col_begin_[i + 1] - col_begin_[i];
      const double* w = wvals_.data() + val_begin_[i];
      const int* idx = hidx_.data() + val_begin_[i];
      for (int a = 0; a < nr; ++a) {
        for (int j = 0; j < k; ++j) {
          double v = 0.0;
          for (int b = 0; b < nr; ++b) v += Du[a][b] * w[b * k + j];
          hv[idx[a * k + j]] = v;
        }
        for (int b = 0; b < nr; ++b)
          hv[idx[a * k + diag_slot_[r0 + b]]] += Dr[a][b] + sigma_ * Du[a][b];
      }
    }
  }
  if (dense_) {
    int swaps = 0;
    if (m_ <= kUnblockedRows) {
      // Rank-1 updates only: the blocked kernel's matrix products allocate their workspace.
      Eigen::Ref<RowMat> h(H_);
      Eigen::internal::partial_lu_impl<double, Eigen::RowMajor, int>::unblocked_lu(
          h, perm_.indices().data(), swaps);
    } else {
      Eigen::internal::partial_lu_inplace(H_, perm_, swaps);
    }
    const auto piv = H_.diagonal().cwiseAbs();
    const double pmax = piv.maxCoeff();
    return std::isfinite(pmax) && pmax > 0 && piv.minCoeff() > kPivotTol * pmax;
  }
  slu_.factorize(Hs_);
  return slu_.info() == Eigen::Success;
}

void LocalNewtonSolver::ResetMemory(double theta) {
  mem_count_ = 1;
  mem_pos_ = 1 % set_.nonmonotone;
  memory_[0] = theta;
}

bool LocalNewtonSolver::LineSearch(double slope) {
  double ref = memory_[0];
  for (int k = 1; k < mem_count_; ++k) ref = std::max(ref, memory_[k]);
  for (double alpha = 1.0; alpha >= set_.min_alpha; alpha *= 0.5) {
    rtry_ = lambda_ + alpha * d_;
    const double ft = Residual(rtry_, utry_, phitry_);
    if (std::isfinite(ft) && 0.5 * ft * ft <= ref + set_.armijo * alpha * slope) {
      lambda_.swap(rtry_);
      u_.swap(utry_);
      phi_.swap(phitry_);
      fnorm_ = ft;
      memory_[mem_pos_] = 0.5 * ft * ft;
      mem_pos_ = (mem_pos_ + 1) % set_.nonmonotone;
      mem_count_ = std::min(mem_count_ + 1, set_.nonmonotone);
      return true;
    }
    ++ls_steps_;
  }
  ++ls_failures_;
  return false;
}

void LocalNewtonSolver::MoveCenter() {
  rc_ = lambda_;
  inner_steps_ = 0;
  fnorm_ = Residual(lambda_, u_, phi_);  // at r = r_c: the original residual
  center_norm_ = fnorm_;
  // σ ∝ the residual at the center (Siconos PROX's adaptive rule σ = σ₀ · error^ν, ν = 1): large
  // far from the solution, vanishing at it, so that the prox steps become Newton steps.
  const double rel = phi_ref_ > 0 ? std::min(1.0, center_norm_ / phi_ref_) : 1.0;
  sigma_ =
      std::clamp(kappa_ * set_.prox_sigma * scale_ * rel, kSigmaMin * scale_, kSigmaMax * scale_);
  ResetMemory(0.5 * fnorm_ * fnorm_);
}

void LocalNewtonSolver::EnterProx() {
  prox_ = true;
  ++prox_entries_;
  kappa_ = 1.0;
  MoveCenter();
}

Status LocalNewtonSolver::Iterate() {
  fnorm_ = Residual(lambda_, u_, phi_);
  // u is checked too: where r_N = 0 the separated branch returns φ = r and hides a NaN in u.
  if (!std::isfinite(fnorm_) || !AllFinite(u_)) {
    message_ = "non-finite Alart–Curnier residual (W, q or the multiplier hold NaN or Inf)";
    return Status::kDiverged;
  }
  if (fnorm_ <= phi_floor_ && !prox_) return Status::kRunning;
  bool ok = true;
  if (fnorm_ > phi_floor_) {
    ++newton_steps_;
    ++inner_steps_;
    ok = FactorizeJacobian(lambda_, u_);
    if (ok) {
      if (dense_) {
        d_ = perm_ * phi_;
        H_.triangularView<Eigen::UnitLower>().solveInPlace(d_);
        H_.triangularView<Eigen::Upper>().solveInPlace(d_);
      } else {
        d_ = slu_.solve(phi_);
      }
      d_ = -d_;
      ok = AllFinite(d_);
    }
    if (!ok) ++factor_failures_;
    // H d = −Φ: the slope of θ = ½‖Φ‖² along d is −‖Φ‖².
    if (ok) ok = LineSearch(-fnorm_ * fnorm_);
  }
  if (!prox_) {
    if (ok && fnorm_ < 0.9 * best_) {
      best_ = fnorm_;
      since_best_ = 0;
    } else if (ok && ++since_best_ >= set_.stall_steps) {
      ok = false;
    }
    if (!ok) EnterProx();
  } else if (!ok || (inner_steps_ >= set_.prox_inner_steps &&
                     fnorm_ > set_.prox_inner_tol * center_norm_)) {
    // Inner Newton failed or stalls: a larger σ makes the subproblem better conditioned and its
    // solution closer to the center.
    kappa_ = std::min(10.0 * kappa_, kSigmaMax);
    ++center_updates_;
    MoveCenter();
  } else if (fnorm_ <= set_.prox_inner_tol * center_norm_ || fnorm_ <= phi_floor_) {
    // A subproblem solved in a step or two is an easy one: a smaller σ weighs the original
    // problem more.
    if (inner_steps_ <= 2) kappa_ = std::max(1.0, set_.prox_shrink * kappa_);
    ++center_updates_;
    MoveCenter();
  }
  if (!AllFinite(lambda_)) {
    message_ = "non-finite or exploding multiplier";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

std::vector<std::pair<std::string, double>> LocalNewtonSolver::Info() const {
  return {{"newton_steps", static_cast<double>(newton_steps_)},
          {"line_search_steps", static_cast<double>(ls_steps_)},
          {"line_search_failures", static_cast<double>(ls_failures_)},
          {"factorization_failures", static_cast<double>(factor_failures_)},
          {"prox_entries", static_cast<double>(prox_entries_)},
          {"prox_center_updates", static_cast<double>(center_updates_)},
          {"sigma", sigma_},
          {"merit", fnorm_},
          {"dense", dense_ ? 1.0 : 0.0}};
}

}  // namespace ncp
