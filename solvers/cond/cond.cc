#include "solvers/cond/cond.h"

#include <omp.h>

#include <cmath>

#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"
#include "solvers/cond/step_size.h"
#include "solvers/cond/surrogate.h"

namespace ncp::cond {

namespace {
// Below this many constraints a parallel region costs more than the closed-form solves.
constexpr int kParallelConstraints = 256;
// Power iterations for λ_max(PÂ): enough for a safeguard and a first step, O(nnz) each.
constexpr int kPowerIterations = 30;
}  // namespace

Status CondSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = CondSettings::Table().From(s);
  original_ = &p;
  if (p.form != ProblemForm::kGlobal) {
    message_ =
        "cond needs the primal form (A, b, J): a local (W, q) problem has no dynamics to nodalize";
    return Status::kNotApplicable;
  }
  bool soft = false;
  for (const Constraint& c : p.constraints) soft |= c.type == ConstraintType::kSoft;
  folded_ = soft ? std::make_unique<FoldedProblem>(FoldSoftRows(p)) : nullptr;
  hard_ = soft ? &folded_->problem : &p;
  nd_ = Nodalize(*hard_, set_.gamma);
  // One thread: the upper-triangle product (half the bytes streamed); several: full rows.
  rows_.Build(nd_.A, omp_get_max_threads() == 1 || nd_.dofs < kParallelRows);
  set_.Resolve(nd_.virtual_nodes > 0);
  const int N = nd_.dofs;
  for (Vec* v : {&p_, &x_, &x_prev_, &xt_, &Ax_, &Ax_prev_}) *v = Vec::Zero(N);
  lambda_ = Vec::Zero(hard_->num_rows());
  reg_.resize(0);
  if (set_.regularization > 0) {  // R from the problem as given: the same R its inverse uses
    const Vec R = Regularization(p, set_.regularization);
    reg_.resize(static_cast<Eigen::Index>(nd_.constraints.size()));
    for (std::size_t i = 0; i < nd_.constraints.size(); ++i) {
      const int row = nd_.constraints[i].row;
      reg_[i] = R[folded_ ? folded_->kept_rows[row] : row];
    }
  }
  ChooseStep();
  if (!(lambda_max_ > 0) || !std::isfinite(lambda_max_) || !p_.allFinite()) {
    message_ = "cond: the nodalized matrix has no positive spectrum (A not SPD?)";
    return Status::kFailed;
  }
  InitialIterate(*hard_, warm);
  x_prev_ = x_;
  cheb_ = Chebyshev(set_.cheb_start, set_.rho_max);
  residual_ = -1.0;
  iter_ = 0;
  return Status::kRunning;
}

void CondSolver::ChooseStep() {
  const Vec ones = Vec::Ones(nd_.dofs);
  if (set_.step == StepKind::kFrobenius) {
    p_ = FrobeniusStep(nd_);
    lambda_max_ = LargestEigenvalue(nd_.A, p_, kPowerIterations);
    if (lambda_max_ > set_.step_cap) {  // safeguard: the V-FPI needs λ(PÂ) < 2
      p_ *= set_.step_cap / lambda_max_;
      lambda_max_ = set_.step_cap;
    }
    return;
  }
  // Scalar steps start from a safe 1/λ_max(Â) bound: the power iteration's estimate for the fixed
  // step, Gershgorin's for BB, which adapts the step from the first iteration on.
  const double lmax = set_.step == StepKind::kPower
                          ? LargestEigenvalue(nd_.A, ones, kPowerIterations)
                          : GershgorinBound(nd_.A);
  bb_step_ = lmax > 0 ? 1.0 / lmax : 0.0;
  p_.setConstant(bb_step_);
  lambda_max_ = lmax * bb_step_;
}

// Warm start (002 §V-A5): v from the harness; a virtual node from w_i = J_i v + λ_i/γ_i, the
// value that the eliminated dynamics (002:17) gives it.
void CondSolver::InitialIterate(const ContactProblem& p, const WarmStart* warm) {
  const int n = nd_.n, m = p.num_rows();
  x_.setZero();
  if (!warm) return;
  const bool has_lambda = warm->lambda.size() == original_->num_rows();
  Vec lam = Vec::Zero(m);
  if (has_lambda) {
    if (folded_)
      for (int r = 0; r < m; ++r) lam[r] = warm->lambda[folded_->kept_rows[r]];
    else
      lam = warm->lambda;
    lambda_ = lam;
  }
  if (warm->v.size() != n) return;
  x_.head(n) = warm->v;
  const Vec Jv = p.J * warm->v;
  for (const NodalConstraint& c : nd_.constraints) {
    if (c.kind != NodeKind::kVirtual) continue;
    for (int k = 0; k < c.rows; ++k) x_[c.dof_a[k]] = Jv[c.row + k] + lam[c.row + k] / c.gamma;
  }
}

// Per iteration (N nodal dofs, m hard rows): the product with Â (RowGroups::MultiplyWork: x
// and Âx); x̃ = x − P(Âx − b̂) and the residual ‖x̃ − x‖: P, b̂ and x̃ (3 passes, 6 flops per dof);
// with Barzilai–Borwein steps their dots over x_prev and Âx_prev (2 passes, 6 flops) from the
// second iteration on; with Chebyshev the extrapolation (6 flops; x_prev, 1 pass, unless BB
// counts it). The constraints: each record once, e and λ (2 passes over m; x̃ and P at their dofs
// are counted above), about 20 flops per row (the rotations, the surrogate solve, the update).
WorkCount CondSolver::Work() const {
  using namespace work;
  if (iter_ == 0) return Zero();
  const double N = nd_.dofs, m = static_cast<double>(lambda_.size());
  const double nc = static_cast<double>(nd_.constraints.size());
  const bool bb = set_.step != StepKind::kFrobenius && set_.step != StepKind::kPower;
  WorkCount it = rows_.MultiplyWork() + Vectors(N, 3, 6) + Vectors(m, 2, 20) +
                 WorkCount{nc * sizeof(NodalConstraint), 0.0};
  if (set_.UseChebyshev()) it = it + Vectors(N, bb ? 0 : 1, 6);
  WorkCount total = iter_ * it;
  if (bb) total = total + (iter_ - 1) * Vectors(N, 2, 6);
  return total;
}

void CondSolver::SolveConstraints() {
  const int nc = static_cast<int>(nd_.constraints.size());
  const Vec& e = hard_->e;
  const bool has_e = e.size() == hard_->num_rows();
#pragma omp parallel for schedule(static) if (nc >= kParallelConstraints)
  for (int i = 0; i < nc; ++i) {
    const NodalConstraint& c = nd_.constraints[i];
    double u[3] = {0.0, 0.0, 0.0}, lam[3] = {0.0, 0.0, 0.0}, w = 0.0;
    if (c.kind == NodeKind::kVirtual) {  // Ĵ_i = I on w_i
      for (int k = 0; k < c.rows; ++k) u[k] = xt_[c.dof_a[k]];
      w = p_[c.dof_a[0]];
    } else {  // Ĵ_i = R on node a (and −R on node b): W̃_i = (p_a + p_b) I (002:25)
      Eigen::Vector3d d(xt_[c.dof_a[0]], xt_[c.dof_a[1]], xt_[c.dof_a[2]]);
      w = p_[c.dof_a[0]];
      if (c.kind == NodeKind::kNodalD) {
        d -= Eigen::Vector3d(xt_[c.dof_b[0]], xt_[c.dof_b[1]], xt_[c.dof_b[2]]);
        w += p_[c.dof_b[0]];
      }
      const Eigen::Vector3d Rd = c.R * d;
      u[0] = Rd[0], u[1] = Rd[1], u[2] = Rd[2];
    }
    if (has_e)
      for (int k = 0; k < c.rows; ++k) u[k] += e[c.row + k];
    if (reg_.size() > 0) w += reg_[i];  // W̃_i + R_i (002:37)
    SolveSurrogate(c.type, c.mu, set_.op == ContactOperator::kStrict, w, u, lam);
    for (int k = 0; k < c.rows; ++k) lambda_[c.row + k] = lam[k];
    // x̄ = x̃ + P Ĵ_iᵀ λ_i (002:24); constraints own disjoint dofs, so no write conflicts.
    if (c.kind == NodeKind::kVirtual) {
      for (int k = 0; k < c.rows; ++k) xt_[c.dof_a[k]] += p_[c.dof_a[k]] * lam[k];
    } else {
      const Eigen::Vector3d f = c.R.transpose() * Eigen::Vector3d(lam[0], lam[1], lam[2]);
      for (int k = 0; k < 3; ++k) xt_[c.dof_a[k]] += p_[c.dof_a[k]] * f[k];
      if (c.kind == NodeKind::kNodalD)
        for (int k = 0; k < 3; ++k) xt_[c.dof_b[k]] -= p_[c.dof_b[k]] * f[k];
    }
  }
}

Status CondSolver::Iterate() {
  rows_.Multiply(x_, Ax_);
  const bool bb = set_.step != StepKind::kFrobenius && set_.step != StepKind::kPower;
  if (bb && iter_ > 0) {  // s = x_k − x_{k−1}, y = Â s from the stored product: no second matvec
    double ss = 0.0, sy = 0.0, yy = 0.0;
    for (Eigen::Index i = 0; i < x_.size(); ++i) {
      const double s = x_[i] - x_prev_[i], y = Ax_[i] - Ax_prev_[i];
      ss += s * s, sy += s * y, yy += y * y;
    }
    const bool first =
        set_.step == StepKind::kBB1 || (set_.step == StepKind::kBarzilaiBorwein && iter_ % 2 == 1);
    bb_step_ = BarzilaiBorwein(first, ss, sy, yy, bb_step_);
    p_.setConstant(bb_step_);
  }
  // V-FPI: gradient step (002:20), closed-form surrogate solves (002:23) and update (002:24).
  xt_ = x_ - p_.cwiseProduct(Ax_ - nd_.b);
  if (bb) Ax_prev_.swap(Ax_);  // Â x_k is needed next iteration; Ax_ is overwritten then
  SolveConstraints();
  residual_ = (xt_ - x_).norm();
  if (set_.UseChebyshev()) {
    const double omega = cheb_.Next(iter_, residual_);
    const double theta = set_.under_relax;
    xt_ = omega * (theta * (xt_ - x_) + x_ - x_prev_) + x_prev_;
  }
  x_prev_.swap(x_);  // x_prev_ ← x_k
  x_.swap(xt_);      // x_ ← x_{k+1}
  ++iter_;
  // x_{k+1} is finite when x_k, x̃ and (with Chebyshev) ω are: x̃ is when the residual is, so
  // the scalar check by induction covers x without another pass over it.
  if (!(residual_ < 1e100) || !std::isfinite(cheb_.omega()) || !AllFinite(lambda_)) {
    message_ = "cond: non-finite or exploding iterate";
    return Status::kDiverged;
  }
  return Status::kRunning;
}

void CondSolver::Current(Vec& v, Vec& lambda) const {
  v = x_.head(nd_.n);
  lambda = folded_ ? UnfoldMultipliers(*original_, *folded_, lambda_, v) : lambda_;
}

std::vector<std::pair<std::string, double>> CondSolver::Info() const {
  return {{"virtual_nodes", static_cast<double>(nd_.virtual_nodes)},
          {"regularization", set_.regularization},
          {"nodal_s_contacts", static_cast<double>(nd_.nodal_s)},
          {"nodal_d_contacts", static_cast<double>(nd_.nodal_d)},
          {"grouped_rows", static_cast<double>(rows_.grouped_rows())},
          {"step_kind", static_cast<double>(set_.step)},
          {"lambda_max_PA", lambda_max_},
          {"rho", cheb_.rho()},
          {"omega", cheb_.omega()},
          {"vfpi_residual", residual_}};
}

int CondSolver::ThreadsUsed() const {
  return nd_.dofs >= kParallelRows ? omp_get_max_threads() : 1;
}

}  // namespace ncp::cond
