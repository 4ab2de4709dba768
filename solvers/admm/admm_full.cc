#include "solvers/admm/admm_full.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "problems/math/constraint_operator.h"
#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"

namespace ncp {

const SettingsTable<AdmmFullSettings>& AdmmFullSettings::Table() {
  using A = AdmmFullSettings;
  static const auto t = [] {
    SettingsTable<A> t;
    t.Real(&A::beta, "beta", {.min = 0.0, .max = 1e12}, "initial penalty β; 0 = the beta_rule")
        .Choice<kBetaRules>(&A::beta_rule, "beta_rule",
                            "initial β: mass = a tenth of the geometric mean of the constraints' "
                            "effective masses 1/max_r Σ_j J_rj²/A_jj, density = geometric mean of "
                            "per-dof pseudo-densities A_jj/rows (004 §VI-D; mixes the units of "
                            "rotations and translations)")
        .Flag(&A::adaptive, "adaptive", "1: adapt β by 004:43")
        .Flag(&A::row_scaling, "row_scaling",
              "1: constraint i's penalty is β m_i/m̄, m_i its effective mass and m̄ their "
              "geometric mean, so that constraints whose effective masses differ by orders (a "
              "cable's contacts and its links' twists: 2e-4 and 5e-10) each get a penalty of "
              "their own scale; 0: one β for every row (004:28)");
    AddAdaptation(t, "");
    t.Choice<kLinears>(&A::linear, "linear",
                       "the v̂ solve: cholmod = sparse Cholesky refactored when β changes; pcg-pbj "
                       "= conjugate gradients preconditioned by 003's projected block Jacobi "
                       "(kinematic trees only)")
        .Real(&A::pcg_tol, "pcg_tol", {.min = 0.0, .max = 1.0, .min_open = true},
              "pcg-pbj: relative residual of each v̂ solve")
        .Int(&A::pcg_max_iters, "pcg_max_iters", {.min = 1, .max = 1e6},
             "pcg-pbj: most PCG iterations per v̂ solve");
    AddFactorSetting(t, &A::factor, "linear=cholmod: ");
    return t;
  }();
  return t;
}

// Pseudo-density per dof: A_jj over the number of constraint rows acting on it; β₀ is their
// geometric mean over the dofs that some constraint touches.
double AdmmFullSolver::InitialBeta(const ContactProblem& p) {
  const SpMat Jc = p.J;  // column-major: one column per dof
  double log_sum = 0.0;
  int count = 0;
  for (int j = 0; j < Jc.outerSize(); ++j) {
    const int rows = static_cast<int>(Jc.col(j).nonZeros());
    const double ajj = p.A.coeff(j, j);
    if (rows == 0 || !(ajj > 0)) continue;
    log_sum += std::log(ajj / rows);
    ++count;
  }
  return count ? std::exp(log_sum / count) : 1.0;
}

Status AdmmFullSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  chol_.reset();  // a factor from an earlier Setup of this instance is not this problem's
  if (p.form != ProblemForm::kGlobal) {
    message_ = "admm-full needs the global form (A, b, J); a local (W, q) problem has none";
    return Status::kNotApplicable;
  }
  p_ = &p;
  const AdmmFullSettings set = AdmmFullSettings::Table().From(s);
  adaptive_ = set.adaptive;
  adapter_.Reset(set.gamma, set.adapt_every, set.balance);
  const std::vector<double> masses = ConstraintEffectiveMasses(p);
  const double mean = GeometricMeanPositive(masses);
  beta_ = set.beta > 0                                         ? set.beta
          : set.beta_rule == AdmmFullSettings::BetaRule::kMass ? kMassFraction * mean
                                                               : InitialBeta(p);
  beta0_ = beta_;
  Jt_ = p.J.transpose();
  // β_i = β m_i/m̄ (β_i = β where m_i is unknown).
  rw_ = Vec::Ones(p.num_rows());
  if (set.row_scaling)
    for (int i = 0; i < p.num_constraints(); ++i)
      if (masses[i] > 0)
        rw_.segment(p.constraints[i].row, p.constraints[i].rows()).setConstant(masses[i] / mean);
  const SpMat JtJ = Jt_ * rw_.asDiagonal() * p.J;
  // Same union pattern for both operands, so K's values are a_vals + β j_vals entry by entry.
  const SpMat Ka = p.A + 0.0 * JtJ, Kj = 0.0 * p.A + JtJ;
  K_ = Ka;
  K_.makeCompressed();
  a_vals_.assign(Ka.valuePtr(), Ka.valuePtr() + Ka.nonZeros());
  j_vals_.assign(Kj.valuePtr(), Kj.valuePtr() + Kj.nonZeros());
  linear_ = set.linear, pcg_tol_ = set.pcg_tol, pcg_max_iters_ = set.pcg_max_iters;
  pcg_iterations_ = 0;
  if (linear_ == AdmmFullSettings::Linear::kPcgPbj) {
    std::string why;
    if (!trees_.Init(p, &why)) {
      message_ =
          "admm-full: linear=pcg-pbj needs kinematic trees: " + why + "; linear=cholmod applies";
      return Status::kNotApplicable;
    }
    std::vector<int> all(p.num_constraints());
    std::vector<double> w(p.num_constraints());
    for (int i = 0; i < p.num_constraints(); ++i) all[i] = i, w[i] = rw_[p.constraints[i].row];
    pbj_.Init(p, all, w, trees_);
    pcg_.Resize(p.num_dofs());
    residual_ = Vec::Zero(p.num_dofs()), dv_ = Vec::Zero(p.num_dofs());
  } else {
    chol_ = std::make_unique<CholmodLLT>(set.factor);
    chol_->Analyze(K_);
  }
  refactorizations_ = 0;
  if (!Refactorize()) {
    message_ = "A + beta J^T J: not positive definite (Cholesky failed)";
    return Status::kFailed;
  }
  const int n = p.num_dofs(), m = p.num_rows();
  lambda_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  u_ = -lambda_;
  Jv_ = Vec::Zero(m), rhs_ = Vec::Zero(n), tmp_ = Vec::Zero(n), Av_ = Vec::Zero(n);
  dual_ = Vec::Zero(n);
  b_norm_ = p.b.norm();
  if (warm && warm->v.size() == n) {
    v_ = warm->v;
  } else {
    // v⁰ = A⁻¹(b + Jᵀλ⁰), the velocity λ⁰ produces, through K with β = 0 (same pattern). With
    // v⁰ = 0 instead, z⁰ = 0 asks every constraint, open contacts included, for zero velocity
    // and the first λ overshoots: res004 rose 25–35× in the first iteration on soft_mat.
    const double beta = beta_;
    beta_ = 0.0;
    const bool ok = Refactorize();
    beta_ = beta;
    rhs_.noalias() = Jt_ * lambda_;
    rhs_ += p.b;
    v_ = Vec::Zero(n);
    if (!ok || !SolveK(rhs_, v_) || !AllFinite(v_)) v_.setZero();
    message_.clear();
    if (!Refactorize()) {
      message_ = "A + beta J^T J: not positive definite (Cholesky failed)";
      return Status::kFailed;
    }
  }
  z_ = p.J * v_;
  iter_ = 0;
  theta_p_ = theta_d_ = 0.0;
  setup_refactorizations_ = refactorizations_;
  setup_pcg_iterations_ = pcg_iterations_;
  return Status::kRunning;
}

// Per iteration (n dofs, m rows): Jᵀ twice (the right-hand side, Jᵀλ), J and A once; the
// m-vectors rw, z, u, J v̂, λ and e once each (6 passes, about 20 flops per row); the n-vectors
// b, A v̂, Jᵀλ and θ_d's (4 passes, about 6 flops per dof). The linear solve: on the CHOLMOD
// route the factor twice (with rhs, v̂ and its work vector); on the PCG route rhs and v̂ (2
// passes), the residual's product with K and r (1 pass), then per PCG step a product with K,
// the block-Jacobi apply (every tree's solve: r and z) and x, p, K p (3 passes, 12 flops per
// dof). A
// refactorization: on the CHOLMOD route CHOLMOD's flop count, K read and the factor written; on
// the PCG route K's values rebuilt (the trees' factorizations are not counted).
WorkCount AdmmFullSolver::Work() const {
  using namespace work;
  if (p_ == nullptr || (linear_ == AdmmFullSettings::Linear::kCholmod && !chol_)) return {};
  const double n = p_->num_dofs(), m = p_->num_rows();
  WorkCount it = 2.0 * SparseProduct(Jt_) + SparseProduct(p_->J) + SparseProduct(p_->A) +
                 Vectors(m, 6, 20) + Vectors(n, 4, 6);
  WorkCount refactor = Zero();
  if (linear_ == AdmmFullSettings::Linear::kCholmod) {
    it = it + SparseFactorSolve(chol_->factor_nonzeros(), n);
    refactor = SparseProduct(K_) +
               WorkCount{chol_->factor_nonzeros() * (kValue + kIndex), chol_->factor_flops()};
  } else {
    it = it + SparseProduct(K_) + Vectors(n, 3, 2);
    refactor = SparseProduct(K_);
  }
  WorkCount total = iter_ * it + (refactorizations_ - setup_refactorizations_) * refactor;
  if (linear_ == AdmmFullSettings::Linear::kPcgPbj)
    total = total + (pcg_iterations_ - setup_pcg_iterations_) *
                        (SparseProduct(K_) + pbj_.ApplyWork() + Vectors(n, 3, 12));
  return total;
}

bool AdmmFullSolver::Refactorize() {
  double* k = K_.valuePtr();
  for (std::size_t i = 0; i < a_vals_.size(); ++i) k[i] = a_vals_[i] + beta_ * j_vals_[i];
  ++refactorizations_;
  if (linear_ == AdmmFullSettings::Linear::kPcgPbj) {
    pbj_.SetScale(beta_);
    return pbj_.Factorize();
  }
  return chol_->Factorize(K_);
}

bool AdmmFullSolver::SolveK(const Vec& rhs, Vec& x) {
  if (linear_ == AdmmFullSettings::Linear::kCholmod) {
    chol_->Solve(rhs, x);
    return true;
  }
  // K dv = rhs − K x from the previous v̂, relative to ‖rhs‖.
  residual_.noalias() = K_ * x;
  residual_ = rhs - residual_;
  const Pcg::Result r = pcg_.Solve([this](const Vec& a, Vec& y) { y.noalias() = K_ * a; },
                                   [this](const Vec& a, Vec& z) { pbj_.Apply(a, z); },
                                   [this] { return PastDeadline(); }, residual_, dv_, pcg_tol_,
                                   pcg_max_iters_, rhs.norm());
  pcg_iterations_ += r.iterations;
  x += dv_;
  if (r.end == Pcg::End::kMaxIterations || r.end == Pcg::End::kBreakdown) {
    message_ = r.end == Pcg::End::kBreakdown
                   ? "PCG broke down (A + β JᵀJ not positive definite, or non-finite values)"
                   : "PCG reached pcg_max_iters without pcg_tol";
    return false;
  }
  return true;
}

Status AdmmFullSolver::Iterate() {
  const ContactProblem& p = *p_;
  // v̂ step: (A + β JᵀJ) v̂ = b + Jᵀ(β z − u).
  Jv_ = beta_ * rw_.cwiseProduct(z_) - u_;  // reuse Jv_ as the m-vector workspace
  rhs_.noalias() = Jt_ * Jv_;
  rhs_ += p.b;
  if (!SolveK(rhs_, v_)) return Status::kFailed;
  Jv_.noalias() = p.J * v_;
  // λ, z, u steps per constraint (closed form of 004:14–16). When β may change by the relative
  // rule after this iteration, θ_p's scale max(‖J v̂‖, ‖z‖) per constraint comes in the same pass.
  const bool scales =
      adaptive_ && adapter_.Due(iter_ + 1) && adapter_.rule() == PenaltyRule::kRelative;
  double ps = 0.0;
  theta_p_ = 0.0;
  for (const Constraint& c : p.constraints) {
    const int r = c.row, nr = c.rows();
    double x[3], y[3];
    const double bc = beta_ * rw_[r];
    for (int k = 0; k < nr; ++k) x[k] = -bc * Jv_[r + k] - u_[r + k] - bc * p.e[r + k];
    ApplyConstraintOperator(c, bc, x, p.e.data() + r, y);
    double prim2 = 0.0;
    for (int k = 0; k < nr; ++k) {
      lambda_[r + k] = y[k];
      z_[r + k] = Jv_[r + k] + (u_[r + k] + y[k]) / bc;
      const double d = Jv_[r + k] - z_[r + k];
      prim2 += d * d;
      u_[r + k] += bc * d;
    }
    theta_p_ = std::max(theta_p_, std::sqrt(prim2));
    if (scales) {
      double jv2 = 0.0, z2 = 0.0;
      for (int k = 0; k < nr; ++k) jv2 += Jv_[r + k] * Jv_[r + k], z2 += z_[r + k] * z_[r + k];
      ps = std::max(ps, std::sqrt(std::max(jv2, z2)));
    }
  }
  // Dual residual θ_d = ‖A v̂ − b − Jᵀλ‖ (004:42, one subsystem).
  Av_.noalias() = p.A * v_;  // kept for the relative rule's scale below
  tmp_.noalias() = Jt_ * lambda_;
  dual_ = Av_ - p.b;
  dual_ -= tmp_;
  theta_d_ = dual_.norm();
  ++iter_;
  if (!std::isfinite(theta_p_) || !std::isfinite(theta_d_) || !AllFinite(v_)) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  // 004:43: rebalance β when one residual dominates the other by more than γ.
  const double scale = beta_ / beta0_;
  double next = scale;
  if (adaptive_ && adapter_.Due(iter_)) {
    // The residuals' scales (relative rule): max(‖J v̂‖, ‖z‖) (ps, from the constraint pass) and
    // max(‖A v̂‖, ‖b‖, ‖Jᵀλ‖), in the norms of θ_p (largest per constraint) and θ_d (2-norm).
    const double ds = scales ? std::max({Av_.norm(), b_norm_, tmp_.norm()}) : 0.0;
    next = adapter_.Update(iter_, theta_p_, theta_d_, ps, ds, scale);
  }
  if (next != scale) {
    beta_ = next * beta0_;
    if (!Refactorize()) {
      message_ = "refactorization failed";
      return Status::kFailed;
    }
  }
  return Status::kRunning;
}

void AdmmFullSolver::Current(Vec& v, Vec& lambda) const {
  v = v_;
  lambda = lambda_;
}

std::vector<std::pair<std::string, double>> AdmmFullSolver::Info() const {
  return {{"beta", beta_},
          {"theta_p", theta_p_},
          {"theta_d", theta_d_},
          {"refactorizations", static_cast<double>(refactorizations_)},
          {"pcg_iterations", static_cast<double>(pcg_iterations_)},
          // What factor=auto chose (1: supernodal); 0 on the PCG route or before a factor.
          {"supernodal", chol_ && chol_->supernodal()}};
}

SolverStats AdmmFullSolver::Stats() const {
  SolverStats s;
  if (iter_ > 0) {  // no residual before the first iteration
    s.primal_residual = theta_p_;
    s.dual_residual = theta_d_;
  }
  s.penalty = beta_;
  s.refactorizations = refactorizations_;
  return s;
}

}  // namespace ncp
