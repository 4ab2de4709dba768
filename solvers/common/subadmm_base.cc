#include "solvers/common/subadmm_base.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <omp.h>

#include "problems/math/constraint_operator.h"
#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"
#include "solvers/common/work_shares.h"

namespace ncp {
double SubAdmmBase::DensityBeta(const ContactProblem& p) {
  const Structure& st = p.structure;
  double log_sum = 0.0;
  int count = 0;
  if (!st.bodies.empty()) {
    std::vector<int> blocks(st.bodies.size(), 0);
    for (const Structure::Block& k : st.blocks) ++blocks[k.body];
    for (std::size_t b = 0; b < st.bodies.size(); ++b) {
      if (blocks[b] == 0 || !(st.bodies[b].mass > 0)) continue;
      log_sum += std::log(st.bodies[b].mass / blocks[b]);
      ++count;
    }
  } else {
    for (int j = 0; j < p.J.outerSize(); ++j) {
      const auto rows = static_cast<double>(p.J.col(j).nonZeros());
      const double ajj = p.A.coeff(j, j);
      if (rows == 0 || !(ajj > 0)) continue;
      log_sum += std::log(ajj / rows);
      ++count;
    }
  }
  return count ? std::exp(log_sum / count) : 1.0;
}

Status SubAdmmBase::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (p.form != ProblemForm::kGlobal) {
    message_ = "needs the global form (A, b, J); a local (W, q) problem has none";
    return Status::kNotApplicable;
  }
  if (p.structure.empty()) {
    message_ = "needs the structure layer (subsystems); this problem has none";
    return Status::kNotApplicable;
  }
  p_ = &p;
  const SubAdmmCommonSettings set = SubAdmmCommonSettings::Table().From(s);
  const Structure& st = p.structure;
  nsub_ = static_cast<int>(st.subsystems.size());
  sub_begin_.resize(nsub_), sub_n_.resize(nsub_), sub_A_.resize(nsub_);
  std::vector<int> sub_of_dof(p.num_dofs());
  for (int j = 0; j < nsub_; ++j) {
    sub_begin_[j] = st.subsystems[j].dof_begin;
    sub_n_[j] = st.subsystems[j].dof_count;
    for (int k = 0; k < sub_n_[j]; ++k) sub_of_dof[sub_begin_[j] + k] = j;
    sub_A_[j].setZero(sub_n_[j], sub_n_[j]);
  }
  // Dense A_j in one pass over A, which must not couple subsystems.
  for (int c = 0; c < p.A.outerSize(); ++c) {
    const int j = sub_of_dof[c];
    for (SpMat::InnerIterator it(p.A, c); it; ++it) {
      if (it.value() == 0.0) continue;
      if (sub_of_dof[it.row()] != j) {
        message_ = fmt::format(
            "A({},{}) couples subsystems {} and {}: the subsystem split needs "
            "a block-diagonal A",
            it.row(), c, sub_of_dof[it.row()], j);
        return Status::kNotApplicable;
      }
      sub_A_[j](it.row() - sub_begin_[j], c - sub_begin_[j]) = it.value();
    }
  }
  // Per-constraint weights of β (row_scaling), needed by BuildSlacks' Σ ω JᵀJ.
  const int nc0 = p.num_constraints();
  con_w_.assign(nc0, 1.0), con_iw_.assign(nc0, 1.0);
  double mass_mean = 0.0;
  if (set.row_scaling) {
    const std::vector<double> m = ConstraintEffectiveMasses(p);
    mass_mean = GeometricMeanPositive(m);
    for (int i = 0; i < nc0; ++i)
      if (m[i] > 0) con_w_[i] = m[i] / mass_mean, con_iw_[i] = mass_mean / m[i];
  }
  slack_con_.clear(), slack_sub_.clear();
  // The set-up's per-subsystem work runs on the threads asked for; the automatic choice below
  // needs the slacks, so it threads the iterations only.
  threads_ = std::max(set.threads, 1);
  if (std::string why = BuildSlacks(s); !why.empty()) {
    message_ = why;
    return Status::kNotApplicable;
  }
  const int ns = static_cast<int>(slack_con_.size()), nc = p.num_constraints();
  con_begin_.assign(nc + 1, 0);
  for (int k = 0; k < ns; ++k) ++con_begin_[slack_con_[k] + 1];
  for (int i = 0; i < nc; ++i) {
    if (con_begin_[i + 1] == 0) {
      message_ = fmt::format("constraint {}: its Jacobian is empty (no subsystem carries it)", i);
      return Status::kNotApplicable;
    }
    con_begin_[i + 1] += con_begin_[i];
  }
  con_slacks_.assign(ns, 0);
  {
    std::vector<int> fill(con_begin_.begin(), con_begin_.end() - 1);
    for (int k = 0; k < ns; ++k) con_slacks_[fill[slack_con_[k]]++] = k;
  }
  // Constraints grouped by kind: the λ-step is order-free (Jacobi over constraints), and one
  // loop per kind runs without a branch on the kind per constraint.
  con3_.clear(), con1_.clear(), contacts_.clear(), softs_.clear();
  for (int i = 0; i < nc; ++i) {
    const Constraint& c = p.constraints[i];
    const int nsl = con_begin_[i + 1] - con_begin_[i];
    const int* sl = con_slacks_.data() + con_begin_[i];
    if (track_y_) {  // 000:22 needs every slack's y: the general step
      (c.rows() == 3 ? con3_ : con1_).push_back(i);
    } else if (c.type == ConstraintType::kContact && nsl <= 2) {
      contacts_.push_back({i, c.row, {sl[0], nsl == 2 ? sl[1] : sl[0]}, nsl, c.mu, 0, {0, 0}, 0});
    } else if (c.type == ConstraintType::kSoft && nsl == 1) {
      softs_.push_back({i, c.row, sl[0], 0, 0, 0, 0});
    } else {
      (c.rows() == 3 ? con3_ : con1_).push_back(i);
    }
  }
  w_.assign(3 * ns, 0.0), z_.assign(3 * ns, 0.0), y_.assign(3 * ns, 0.0);

  adaptive_ = set.adaptive;
  adapter_.Reset(set.gamma, set.adapt_every, set.balance);
  // Auto: OpenMP's threads once the problem is large enough to pay for a threaded iteration's
  // three barriers (~µs each; a laikago frame's whole iteration is ~10 µs).
  threads_ = set.threads > 0 ? set.threads
                             : (static_cast<int>(slack_con_.size()) >= kAutoParallelSlacks
                                    ? omp_get_max_threads()
                                    : 1);
  parallel_ = threads_ > 1;
  beta_base_.assign(nsub_, 1.0);
  if (set.beta > 0)
    std::fill(beta_base_.begin(), beta_base_.end(), set.beta);
  else if (mass_mean > 0)
    std::fill(beta_base_.begin(), beta_base_.end(), kMassFraction * mass_mean);
  else
    InitialBeta(s, beta_base_);
  scale_ = 1.0;
  beta_ = beta_base_;
  inv_beta_.resize(nsub_);
  for (int j = 0; j < nsub_; ++j) inv_beta_[j] = 1.0 / beta_[j];
  con_beta_.assign(nc, 0.0), soft_alpha_.assign(nc, 0.0), soft_kappa_.assign(nc, 0.0);
  UpdateConstraintBetas();
  refactorizations_ = 0;
  factorized_.assign(nsub_, 0);
  partial_.assign(2 * static_cast<std::size_t>(threads_), {});
  if (!RefactorizeAll()) {
    message_ = "A_j + beta sum J^T J: not positive definite (factorization failed)";
    return Status::kFailed;
  }
  SetSubsystemShares();
  step_begin_.clear();
  if (parallel_) ShareConstraintSteps();
  const int n = p.num_dofs(), m = p.num_rows();
  vbuf_[0] = warm && warm->v.size() == n ? warm->v : Vec::Zero(n);
  vbuf_[1] = Vec::Zero(n);
  lambda_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  g_ = Vec::Zero(n), h_ = Vec::Zero(n), rhs_ = Vec::Zero(n);
  theta_d_sub_.assign(nsub_, 0.0);
  b_norm2_.resize(nsub_);
  for (int j = 0; j < nsub_; ++j) b_norm2_[j] = p.b.segment(sub_begin_[j], sub_n_[j]).squaredNorm();
#pragma omp parallel num_threads(threads_) if (parallel_)
  {
    // z⁰ = J v̂⁰ (no primal residual), u⁰ = −λ⁰; each subsystem's slacks and sums are its own.
    const auto [j0, j1] = SubsystemShare(omp_get_thread_num(), omp_get_num_threads());
    for (int j = j0; j < j1; ++j) SlackVelocities(j, vbuf_[0].data() + sub_begin_[j]);
  }
  z_ = w_;
  for (int k = 0; k < ns; ++k)
    for (int r = 0; r < 3; ++r)
      y_[3 * k + r] =
          beta_[slack_sub_[k]] * con_w_[slack_con_[k]] * w_[3 * k + r] -
          (r < p.constraints[slack_con_[k]].rows() ? lambda_[p.constraints[slack_con_[k]].row + r]
                                                   : 0.0);
#pragma omp parallel num_threads(threads_) if (parallel_)
  {
    const auto [j0, j1] = SubsystemShare(omp_get_thread_num(), omp_get_num_threads());
    for (int j = j0; j < j1; ++j)
      Accumulate(j, g_.data() + sub_begin_[j], h_.data() + sub_begin_[j]);
  }
  iter_ = 0;
  theta_p_ = theta_d_ = theta_y_ = 0.0;
  return Status::kRunning;
}

// β_i of a constraint: 1/β_i = Σ_s 1/β_s over its slacks (= β/|Z_i| for one β, 004:36–38),
// β_s = β_j ω_i for a slack of constraint i in subsystem j.
// A soft row's operator is affine in the trial multiplier: with x = λ − β_i (w + e),
// T(x) = (d x + β_i (d − k) e)/(d + β_i) = α (λ − β_i w) − κ, α = d/(d + β_i),
// κ = β_i k e/(d + β_i); both are kept per row so the λ-step divides nothing.
void SubAdmmBase::UpdateConstraintBetas() {
  const std::vector<Constraint>& cons = p_->constraints;
  for (std::size_t i = 0; i + 1 < con_begin_.size(); ++i) {
    double inv_sum = 0.0;
    for (int t = con_begin_[i]; t < con_begin_[i + 1]; ++t)
      inv_sum += inv_beta_[slack_sub_[con_slacks_[t]]];
    con_beta_[i] = con_w_[i] / inv_sum;
    const Constraint& c = cons[i];
    if (c.type == ConstraintType::kSoft) {
      const double bi = con_beta_[i], den = c.damping + bi;
      soft_alpha_[i] = c.damping / den;
      soft_kappa_[i] = bi * c.stiffness * p_->e[c.row] / den;
    }
  }
  for (ContactRecord& r : contacts_) {
    r.beta = con_beta_[r.con];
    for (int t = 0; t < 2; ++t) r.ibs[t] = inv_beta_[slack_sub_[r.slack[t]]] * con_iw_[r.con];
    r.max_ibs = std::max(r.ibs[0], r.ibs[1]);
  }
  for (SoftRecord& r : softs_) {
    r.alpha = soft_alpha_[r.con], r.kappa = soft_kappa_[r.con], r.beta = con_beta_[r.con];
    r.ibs = inv_beta_[slack_sub_[r.slack]] * con_iw_[r.con];
  }
}

bool SubAdmmBase::RefactorizeAll() {
  if (parallel_) {
#pragma omp parallel num_threads(threads_)
    FactorizeShare();
  } else {
    FactorizeShare();
  }
  ++refactorizations_;
  return Factorized();
}

// Outside a parallel region the loop binds to a team of one: the calling thread does it all.
void SubAdmmBase::FactorizeShare() {
#pragma omp for schedule(static)
  for (int j = 0; j < nsub_; ++j) factorized_[j] = Factorize(j, beta_[j]);
}

// The work weighs bytes as doubles against flops: a subsystem's passes stream its slacks' blocks.
void SubAdmmBase::SetSubsystemShares() {
  work_prefix_.assign(nsub_ + 1, 0.0);
  for (int j = 0; j < nsub_; ++j) {
    const WorkCount w = SubsystemWork(j);
    const double cost = w.bytes / 8.0 + w.flops;
    work_prefix_[j + 1] = work_prefix_[j] + (std::isfinite(cost) && cost > 0 ? cost : 1.0);
  }
}

std::pair<int, int> SubAdmmBase::SubsystemShare(int t, int nt) const {
  return WorkShare(work_prefix_, t, nt);
}

void SubAdmmBase::ShareConstraintSteps() {
  std::vector<int> owner(nsub_, 0);
  for (int t = 0; t < threads_; ++t) {
    const auto [j0, j1] = SubsystemShare(t, threads_);
    for (int j = j0; j < j1; ++j) owner[j] = t;
  }
  auto first_owner = [&](int con) { return owner[slack_sub_[con_slacks_[con_begin_[con]]]]; };
  // A stable counting sort of one kind's records by owner; begin(t) receives the offsets.
  auto order = [&](auto& records, auto owner_of, auto begin) {
    std::vector<std::size_t> at(threads_ + 1, 0);
    for (const auto& r : records) ++at[owner_of(r) + 1];
    for (int t = 0; t < threads_; ++t) at[t + 1] += at[t];
    for (int t = 0; t <= threads_; ++t) begin(t) = at[t];
    std::remove_reference_t<decltype(records)> sorted(records.size());
    for (const auto& r : records) sorted[at[owner_of(r)]++] = r;
    records.swap(sorted);
  };
  step_begin_.assign(threads_ + 1, {});
  order(
      contacts_, [&](const ContactRecord& r) { return first_owner(r.con); },
      [&](int t) -> std::size_t& { return step_begin_[t].contacts; });
  order(
      softs_, [&](const SoftRecord& r) { return first_owner(r.con); },
      [&](int t) -> std::size_t& { return step_begin_[t].softs; });
  order(con3_, first_owner, [&](int t) -> std::size_t& { return step_begin_[t].con3; });
  order(con1_, first_owner, [&](int t) -> std::size_t& { return step_begin_[t].con1; });
}

SubAdmmBase::StepShare SubAdmmBase::StepBegin(int t, int nt) const {
  if (nt == threads_ && step_begin_.size() == static_cast<std::size_t>(nt) + 1)
    return step_begin_[t];
  const StepShare all = AllSteps();
  auto share = [t, nt](std::size_t n) { return n * t / nt; };
  return {share(all.contacts), share(all.softs), share(all.con3), share(all.con1)};
}

template <bool kScales>
void SubAdmmBase::ConstraintStepShare(const StepShare& b, const StepShare& e, double& theta_p,
                                      double& theta_y, double& ps2) {
  ContactSteps<kScales>(b.contacts, e.contacts, theta_p, ps2);
  SoftSteps<kScales>(b.softs, e.softs, theta_p, ps2);
  for (std::size_t k = b.con3; k < e.con3; ++k)
    ConstraintStepRows<3, kScales>(con3_[k], theta_p, theta_y, ps2);
  for (std::size_t k = b.con1; k < e.con1; ++k)
    ConstraintStepRows<1, kScales>(con1_[k], theta_p, theta_y, ps2);
}

bool SubAdmmBase::StepRowsFinite(const StepShare& b, const StepShare& e) const {
  const double* lam = lambda_.data();
  auto rows_finite = [lam](int row, int rows) {
    return AllFinite(Eigen::Map<const Vec>(lam + row, rows));
  };
  for (std::size_t k = b.contacts; k < e.contacts; ++k)
    if (!rows_finite(contacts_[k].row, 3)) return false;
  for (std::size_t k = b.softs; k < e.softs; ++k)
    if (!rows_finite(softs_[k].row, 1)) return false;
  for (std::size_t k = b.con3; k < e.con3; ++k)
    if (!rows_finite(p_->constraints[con3_[k]].row, 3)) return false;
  for (std::size_t k = b.con1; k < e.con1; ++k) {
    const Constraint& c = p_->constraints[con1_[k]];
    if (!rows_finite(c.row, c.rows())) return false;
  }
  return true;
}

bool SubAdmmBase::Factorized() const {
  return std::all_of(factorized_.begin(), factorized_.end(), [](char ok) { return ok != 0; });
}

template <int NR, bool kScales>
void SubAdmmBase::ConstraintStepRows(int i, double& theta_p, double& theta_y, double& ps2) {
  // With u_s = −λ_i (39), Σ_s y_s/β_s = Σ_s w_s − λ_i/β_i, so the trial multiplier of 004:36–38
  // is x = λ_i − β_i (Σ_s w_s + e_i), and then z_s = (y_s + λ_i⁺)/β_s = w_s + (λ_i⁺ − λ_i)/β_s.
  const Constraint& c = p_->constraints[i];
  const int r = c.row;
  const double* e = p_->e.data() + r;
  double* lam = lambda_.data() + r;
  const double iw = con_iw_[i];
  double wsum[NR] = {}, max_ibs = 0.0;
  for (int t = con_begin_[i]; t < con_begin_[i + 1]; ++t) {
    const int s = con_slacks_[t];
    const double* w = w_.data() + 3 * s;
    for (int k = 0; k < NR; ++k) wsum[k] += w[k];
    max_ibs = std::max(max_ibs, inv_beta_[slack_sub_[s]] * iw);
  }
  if (track_y_) {  // 000:22: θ = Σ_s ‖y_s^{l+1} − y_s^l‖², y_s = β_s w_s − λ_i
    double ty = 0.0;
    for (int t = con_begin_[i]; t < con_begin_[i + 1]; ++t) {
      const int s = con_slacks_[t];
      const double bs = beta_[slack_sub_[s]] * con_w_[i];
      for (int k = 0; k < NR; ++k) {
        const double yn = bs * w_[3 * s + k] - lam[k];
        ty += (yn - y_[3 * s + k]) * (yn - y_[3 * s + k]);
        y_[3 * s + k] = yn;
      }
    }
    theta_y += ty;
  }
  const double beta_i = con_beta_[i];
  double x[3] = {}, ln[3] = {};  // 3 even for NR = 1: the operator reads a contact's 3
  if (NR == 1 && c.type == ConstraintType::kSoft) {
    ln[0] = soft_alpha_[i] * (lam[0] - beta_i * wsum[0]) - soft_kappa_[i];
  } else {
    for (int k = 0; k < NR; ++k) x[k] = lam[k] - beta_i * (wsum[k] + e[k]);
    if constexpr (NR == 3)
      ProjectStrict(c.mu, x, ln);  // 3 rows: a contact (38)
    else
      ApplyConstraintOperator(c, beta_i, x, e, ln);
  }
  double dl[NR], dl2 = 0.0;
  for (int k = 0; k < NR; ++k) dl[k] = ln[k] - lam[k], dl2 += dl[k] * dl[k], lam[k] = ln[k];
  for (int t = con_begin_[i]; t < con_begin_[i + 1]; ++t) {
    const int s = con_slacks_[t];
    const double ibs = inv_beta_[slack_sub_[s]] * iw;
    for (int k = 0; k < NR; ++k) z_[3 * s + k] = w_[3 * s + k] + dl[k] * ibs;
    if constexpr (kScales) ps2 = std::max(ps2, SlackScale2(&w_[3 * s], &z_[3 * s]));
  }
  // ‖J_s v̂ − z_s‖ = ‖Δλ‖/β_s: the largest over the slacks, squared (the root comes later).
  const double prim2 = dl2 * max_ibs * max_ibs;
  theta_p = prim2 > theta_p ? prim2 : theta_p;
}

// ConstraintStepRows<3> for a contact record (a second slack equal to the first is not used).
template <bool kScales>
void SubAdmmBase::ContactSteps(std::size_t k0, std::size_t k1, double& theta_p, double& ps2) {
  const ContactRecord* rec = contacts_.data();
  const double* e = p_->e.data();
  const auto [w, z, lam] = StepArrays();
  double tp = theta_p;
  for (std::size_t k = k0; k < k1; ++k) {
    const ContactRecord& c = rec[k];
    const double* w0 = w + 3 * c.slack[0];
    const double* w1 = w + 3 * c.slack[1];
    const bool two = c.nslacks == 2;
    double* l = lam + c.row;
    double x[3], ln[3], dl[3];
    for (int r = 0; r < 3; ++r)
      x[r] = l[r] - c.beta * ((two ? w0[r] + w1[r] : w0[r]) + e[c.row + r]);
    ProjectStrict(c.mu, x, ln);
    double dl2 = 0.0;
    for (int r = 0; r < 3; ++r) dl[r] = ln[r] - l[r], dl2 += dl[r] * dl[r], l[r] = ln[r];
    double* z0 = z + 3 * c.slack[0];
    for (int r = 0; r < 3; ++r) z0[r] = w0[r] + dl[r] * c.ibs[0];
    if constexpr (kScales) ps2 = std::max(ps2, SlackScale2(w0, z0));
    if (two) {
      double* z1 = z + 3 * c.slack[1];
      for (int r = 0; r < 3; ++r) z1[r] = w1[r] + dl[r] * c.ibs[1];
      if constexpr (kScales) ps2 = std::max(ps2, SlackScale2(w1, z1));
    }
    const double prim2 = dl2 * c.max_ibs * c.max_ibs;
    tp = prim2 > tp ? prim2 : tp;
  }
  theta_p = tp;
}

// ConstraintStepRows<1> for a soft record: λ⁺ = α (λ − β_i w) − κ.
template <bool kScales>
void SubAdmmBase::SoftSteps(std::size_t k0, std::size_t k1, double& theta_p, double& ps2) {
  const SoftRecord* rec = softs_.data();
  const auto [w, z, lam] = StepArrays();
  double tp = theta_p;
  for (std::size_t k = k0; k < k1; ++k) {
    const SoftRecord& c = rec[k];
    const double ws = w[3 * c.slack], l = lam[c.row];
    const double ln = c.alpha * (l - c.beta * ws) - c.kappa, dl = ln - l;
    lam[c.row] = ln;
    z[3 * c.slack] = ws + dl * c.ibs;
    if constexpr (kScales) ps2 = std::max(ps2, SlackScale2(w + 3 * c.slack, z + 3 * c.slack));
    const double prim2 = dl * dl * c.ibs * c.ibs;
    tp = prim2 > tp ? prim2 : tp;
  }
  theta_p = tp;
}

void SubAdmmBase::SubsystemStep(int j, double& theta_d) {
  const int b0 = sub_begin_[j], n = sub_n_[j];
  // θ_d,j = ‖A_j v̂_j − b_j − Σ J_sᵀ λ‖ (42). Since v̂_j solved K_j v̂_j = b_j + Σ J_sᵀ(β z_s + λ)
  // exactly, that equals β ‖Σ J_sᵀ (z_s^l − z_s^{l+1})‖ = β ‖h_j^l − h_j^{l+1}‖: no product with
  // A_j. rhs_ is free here and keeps h^l.
  double* hold = rhs_.data() + b0;
  for (int k = 0; k < n; ++k) hold[k] = h_[b0 + k];
  Accumulate(j, g_.data() + b0, h_.data() + b0);
  double d2 = 0.0;
  for (int k = 0; k < n; ++k) d2 += (hold[k] - h_[b0 + k]) * (hold[k] - h_[b0 + k]);
  theta_d_sub_[j] = beta_[j] * std::sqrt(d2);
  theta_d = std::max(theta_d, theta_d_sub_[j]);
}

void SubAdmmBase::VelocityStep(int j, Vec& v) {
  const int b0 = sub_begin_[j], n = sub_n_[j];
  for (int k = 0; k < n; ++k)  // b_j + Σ J_sᵀ(β z_s + λ_i)   (34)
    rhs_[b0 + k] = p_->b[b0 + k] + beta_[j] * h_[b0 + k] + g_[b0 + k];
  Solve(j, rhs_.data() + b0, v.data() + b0);
  SlackVelocities(j, v.data() + b0);
}

WorkCount SubAdmmBase::Work() const {
  using namespace work;
  if (iter_ == 0) return Zero();
  const double n = static_cast<double>(vbuf_[0].size()), m = static_cast<double>(lambda_.size());
  const double slacks = static_cast<double>(slack_con_.size());
  const double records = static_cast<double>(contacts_.size()) * sizeof(ContactRecord) +
                         static_cast<double>(softs_.size()) * sizeof(SoftRecord);
  WorkCount subsystems = Zero();
  for (int j = 0; j < nsub_; ++j) subsystems = subsystems + SubsystemWork(j);
  return iter_ * (subsystems + Vectors(n, 5, 4) + Vectors(slacks, 6, 0) + Vectors(m, 2, 30) +
                  WorkCount{records, 0.0});
}

SubAdmmBase::Reduced SubAdmmBase::Reduce(const Reduced* slots, int nt) {
  Reduced r;
  for (int u = 0; u < nt; ++u) {
    r.tp2 = std::max(r.tp2, slots[u].tp2), r.ty += slots[u].ty;
    r.td = std::max(r.td, slots[u].td), r.ps2 = std::max(r.ps2, slots[u].ps2);
    r.ds2 = std::max(r.ds2, slots[u].ds2), r.finite = r.finite && slots[u].finite;
  }
  return r;
}

// Ends an iteration from what its passes reduced: θ, the finite check, 004:43. `adapter`, `scale`
// and `iter` are the caller's copies: each thread of a team keeps its own and, from the same
// reduced values, reaches the same decision without waiting for another. `owner` also writes
// the members a caller reads (θ, the iteration count, the message). `changed`: the scale moved
// (ApplyScale and the refactorizations are the caller's).
Status SubAdmmBase::EndIteration(bool scales, const Reduced& r, PenaltyAdapter& adapter,
                                 double& scale, int& iter, bool owner, bool& changed) {
  const double tp = std::sqrt(r.tp2);
  ++iter;
  changed = false;
  if (owner) theta_p_ = tp, theta_d_ = r.td, theta_y_ = r.ty, iter_ = iter;
  if (!std::isfinite(tp) || !std::isfinite(r.td) || !r.finite) {
    if (owner) message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  if (adaptive_ && adapter.Due(iter)) {
    const double ps = scales ? std::sqrt(r.ps2) : 0.0, ds = scales ? std::sqrt(r.ds2) : 0.0;
    const double next = adapter.Update(iter, tp, r.td, ps, ds, scale);
    changed = next != scale;
    scale = next;
  }
  return Status::kRunning;
}

void SubAdmmBase::ApplyScale(double scale) {
  scale_ = scale;
  for (int j = 0; j < nsub_; ++j) beta_[j] = scale_ * beta_base_[j], inv_beta_[j] = 1.0 / beta_[j];
  UpdateConstraintBetas();
}

// The relative rule's scales, when due, inside the passes that write z and g: a pass of their
// own took about 5% of a serial iteration's time, and in a parallel one a serial pass costs the
// other thread a wait of several µs (maxima: the same bits in any order).
bool SubAdmmBase::ScalesDue(const PenaltyAdapter& adapter, int iter) const {
  return adaptive_ && adapter.Due(iter + 1) && adapter.rule() == PenaltyRule::kRelative;
}

Status SubAdmmBase::IterateSerial() {
  const bool scales = ScalesDue(adapter_, iter_);
  Reduced r;
  Vec& v = vbuf_[(iter_ + 1) % 2];
  for (int j = 0; j < nsub_; ++j) VelocityStep(j, v);
  if (scales)
    ConstraintStepShare<true>({}, AllSteps(), r.tp2, r.ty, r.ps2);
  else
    ConstraintStepShare<false>({}, AllSteps(), r.tp2, r.ty, r.ps2);
  for (int j = 0; j < nsub_; ++j) {
    SubsystemStep(j, r.td);
    if (scales) r.ds2 = std::max(r.ds2, SubsystemScale2(j));
  }
  r.finite = AllFinite(v) && AllFinite(lambda_);
  double scale = scale_;
  int iter = iter_;
  bool changed = false;
  const Status st = EndIteration(scales, r, adapter_, scale, iter, true, changed);
  if (st != Status::kRunning || !changed) return st;
  ApplyScale(scale);
  return RefactorizeAll() ? st : RefactorizationFailed();
}

Status SubAdmmBase::RefactorizationFailed() {
  message_ = "refactorization failed";
  return Status::kFailed;
}

Status SubAdmmBase::Iterate() {
  int done = 0;
  return IterateChunk(1, done);
}

// Threaded, the k iterations run in one OpenMP region, its fork and join once per chunk, with
// two barriers an iteration: after the v-steps (the λ-steps read every subsystem's w) and after
// the λ-steps (the subsystems accumulate every constraint's λ and z). An iteration is ended
// (EndIteration: the reduced θ and finite test, 004:43) after the next iteration's v-steps, at
// their barrier, since those need only their own subsystem's sums: they write the other v̂
// buffer, so an iteration found non-finite there still stops on its own iterate, and when β
// changes they are run again after the team's refactorizations (two more barriers). The chunk's
// last iteration is ended at a third barrier of its own. The subsystems are shared out by their
// work (SubsystemShare), the same share each pass, and each thread takes the λ-steps of the
// constraints whose first slack is in its subsystems (ShareConstraintSteps). Each thread ends
// every iteration itself, on its own copy of the adaptation, so none waits for one that
// decides. Partial results go to per-thread slots that alternate by iteration: a slot is written
// again two iterations later, after every thread has passed the barrier that follows its
// reading. Every reduction the iterates depend on is a maximum, so they are those of one thread,
// bit for bit (Σ‖Δy‖², reported only, adds in thread order).
Status SubAdmmBase::IterateChunk(int k, int& done) {
  Status result = Status::kRunning;
  done = 0;
  if (!parallel_) {
    while (done < k && result == Status::kRunning) result = IterateSerial(), ++done;
    return result;
  }
  int ran = 0;
#pragma omp parallel num_threads(threads_)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const auto [j0, j1] = SubsystemShare(t, nt);
    const StepShare sb = StepBegin(t, nt), se = StepBegin(t + 1, nt);
    // The subsystems tile the dofs in order (a validated structure): v̂ of j0…j1 − 1.
    const int n = static_cast<int>(vbuf_[0].size());
    const int d0 = j0 < nsub_ ? sub_begin_[j0] : n, d1 = j1 < nsub_ ? sub_begin_[j1] : n;
    PenaltyAdapter adapter = adapter_;
    double scale = scale_;
    int iter = iter_;
    const int iter0 = iter;  // thread 0 moves iter_ as the iterations end
    Status st = Status::kRunning;
    // Ends an iteration from its slots; on a β change, refactorizes with the team.
    auto end = [&](const Reduced* slots, bool scales) {
      bool changed = false;
      st = EndIteration(scales, Reduce(slots, nt), adapter, scale, iter, t == 0, changed);
      if (t == 0) ++ran;
      if (st != Status::kRunning || !changed) return false;
      if (t == 0) ApplyScale(scale);
#pragma omp barrier
      FactorizeShare();
      if (t == 0) ++refactorizations_;
      if (!Factorized()) st = t == 0 ? RefactorizationFailed() : Status::kFailed;
      return st == Status::kRunning;
    };
    const Reduced* open = nullptr;  // the last iteration's slots, not yet ended
    bool open_scales = false;
    for (int it = 0; it < k; ++it) {
      Reduced* slots = partial_.data() + (it % 2) * nt;
      Reduced& mine = slots[t];
      mine = {};
      Vec& v = vbuf_[(iter0 + it + 1) % 2];
      for (int j = j0; j < j1; ++j) VelocityStep(j, v);
#pragma omp barrier
      if (open) {
        const bool changed = end(open, open_scales);
        open = nullptr;
        if (st != Status::kRunning) break;  // every thread reduced the same slots
        if (changed) {                      // the v-steps again, at the new β
          for (int j = j0; j < j1; ++j) VelocityStep(j, v);
#pragma omp barrier
        }
      }
      const bool scales = ScalesDue(adapter, iter);
      if (scales)
        ConstraintStepShare<true>(sb, se, mine.tp2, mine.ty, mine.ps2);
      else
        ConstraintStepShare<false>(sb, se, mine.tp2, mine.ty, mine.ps2);
      // v and λ stay as they are until the next iteration's steps: each thread tests what it
      // wrote, v̂ of its subsystems and λ of its records.
      mine.finite = AllFinite(v.segment(d0, d1 - d0)) && StepRowsFinite(sb, se);
#pragma omp barrier
      for (int j = j0; j < j1; ++j) {
        SubsystemStep(j, mine.td);
        if (scales) mine.ds2 = std::max(mine.ds2, SubsystemScale2(j));
      }
      if (it + 1 < k) {
        open = slots, open_scales = scales;
        continue;
      }
#pragma omp barrier
      end(slots, scales);
    }
    if (t == 0) adapter_ = adapter, result = st;
  }
  done = ran;
  return result;
}

// The scales of θ_p and θ_d in their norms (largest per slack, per subsystem):
// max_s max(‖J_s v̂‖, ‖z_s‖) and max_j max(‖b_j‖, ‖Σ J_sᵀλ‖). Only when β may change.
double SubAdmmBase::SubsystemScale2(int j) const {
  return std::max(b_norm2_[j], g_.segment(sub_begin_[j], sub_n_[j]).squaredNorm());
}

void SubAdmmBase::Current(Vec& v, Vec& lambda) const {
  v = vbuf_[iter_ % 2];
  lambda = lambda_;
}

SolverStats SubAdmmBase::Stats() const {
  SolverStats s;
  if (iter_ > 0) {  // no residual before the first iteration
    s.primal_residual = theta_p_;
    s.dual_residual = theta_d_;
  }
  double log_sum = 0.0;
  for (double b : beta_) log_sum += std::log(b);
  if (nsub_ > 0) s.penalty = std::exp(log_sum / nsub_);
  s.refactorizations = refactorizations_;
  return s;
}

std::vector<std::pair<std::string, double>> SubAdmmBase::Info() const {
  double log_sum = 0.0;
  for (double b : beta_) log_sum += std::log(b);
  std::vector<std::pair<std::string, double>> info = {
      {"beta", nsub_ ? std::exp(log_sum / nsub_) : 0.0},
      {"beta_scale", scale_},
      {"theta_p", theta_p_},
      {"theta_d", theta_d_},
      {"slacks", static_cast<double>(slack_con_.size())},
      {"refactorizations", static_cast<double>(refactorizations_)}};
  if (track_y_) info.push_back({"theta_000_22", theta_y_});
  return info;
}

}  // namespace ncp
