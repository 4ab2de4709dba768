#include "solvers/bisp/bisp.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "solvers/common/dual_update.h"

namespace ncp {

const SettingsTable<BispSettings>& BispSettings::Table() {
  static const auto t =
      SettingsTable<BispSettings>()
          .Int(&BispSettings::inner, "inner", {.min = 1, .max = 1e6},
               "most projected Gauss-Seidel sweeps of the friction QP per iteration")
          .Real(&BispSettings::inner_tol, "inner_tol", {.min = 0.0, .max = 1.0},
                "the friction QP stops when no λ_t moved more than inner_tol × max |λ|")
          .Real(&BispSettings::eps, "eps", {.min = 0.0, .max = 1.0},
                "regularization of each joint's local solve (003:16), relative to the mean "
                "diagonal of N M⁻¹ Nᵀ; 0 is exact (the implicit contacts are independent)");
  return t;
}

Status BispSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = BispSettings::Table().From(s);
  inner_sweeps_ = 0;
  wrench_change_ = 0.0;
  // W_r is dense, like G (joint_tree.cc): refused before anything is allocated.
  if (const double nc = p.num_constraints(); nc * nc > 5e7) {
    message_ = fmt::format(
        "bisp: the reduced friction QP is dense, {0} × {0} entries, above the "
        "limit 5e7",
        p.num_constraints());
    return Status::kNotApplicable;
  }
  std::string why;
  if (!BuildJointTree(p, set_.eps, tree_, why)) {
    message_ = "bisp: " + why;
    return Status::kNotApplicable;
  }
  constraints_ = &p.constraints;
  A_ = p.A;
  Jt_ = p.J.transpose();
  b_ = p.b;
  Gt_ = tree_.G.transpose();
  Mr_.compute(Gt_ * (A_ * tree_.G));
  if (Mr_.info() != Eigen::Success) {
    message_ = "bisp: the reduced matrix Gᵀ A G is not positive definite";
    return Status::kFailed;
  }
  r0_ = Gt_ * (A_ * tree_.g0);
  // The friction QP in reduced coordinates: u_t = T (G v_r + g0) + e_t with
  // v_r = (Gᵀ A G)⁻¹ Gᵀ (b + Tᵀ λ_t − A g0).
  const int nt = p.num_constraints(), nr = tree_.reduced_dofs();
  Eigen::MatrixXd TG(nt, nr);
  Vec Tg0(nt), et(nt);
  for (int k = 0; k < nt; ++k) {
    const int row = p.constraints[k].row + 1;
    TG.row(k).setZero();
    Tg0[k] = 0.0;
    for (SpMat::InnerIterator it(Jt_, row); it; ++it) {
      TG.row(k) += it.value() * tree_.G.row(it.index());
      Tg0[k] += it.value() * tree_.g0[it.index()];
    }
    et[k] = p.e.size() > row ? p.e[row] : 0.0;
  }
  // (Gᵀ A G)⁻¹ (T G)ᵀ; without joint rows there is nothing to solve (Eigen's triangular solve
  // of zero columns binds a reference to a null coefficient: undefined behaviour).
  const Eigen::MatrixXd X =
      nt > 0 ? Eigen::MatrixXd(Mr_.solve(Eigen::MatrixXd(TG.transpose()))) : Eigen::MatrixXd(nr, 0);
  Wr_ = TG * X;
  const Vec vr0 = Mr_.solve(Vec(Gt_ * b_ - r0_));
  qr_ = TG * vr0 + Tg0 + et;
  const int m = p.num_rows(), n = p.num_dofs();
  lambda_ =
      warm && warm->lambda.size() == m && warm->lambda.allFinite() ? warm->lambda : Vec::Zero(m);
  beta_ = Vec::Zero(nt);
  for (int k = 0; k < nt; ++k) beta_[k] = lambda_[p.constraints[k].row + 1];
  rhs_ = Vec::Zero(n);
  v_ = Vec::Zero(n);
  wrench_ = Vec::Zero(n);
  rhs_r_ = Vec::Zero(nr);
  ContactStep();  // the normals that go with the starting friction
  return CheckFinite();
}

Status BispSolver::CheckFinite() {
  if (AllFinite(lambda_)) return Status::kRunning;  // the dual solvers' bound (dual_update.h)
  message_ = "non-finite or exploding multiplier";
  return Status::kDiverged;
}

void BispSolver::ContactStep() {
  const auto& cs = *constraints_;
  // rhs = b + Tᵀ λ_t: the friction held as a force.
  rhs_ = b_;
  for (std::size_t k = 0; k < cs.size(); ++k) {
    lambda_[cs[k].row + 1] = beta_[k];
    for (SpMat::InnerIterator it(Jt_, cs[k].row + 1); it; ++it)
      rhs_[it.index()] += it.value() * beta_[k];
  }
  rhs_r_.noalias() = Gt_ * rhs_;
  rhs_r_ -= r0_;
  Mr_.solveInPlace(rhs_r_);
  v_ = tree_.g0;
  v_.noalias() += tree_.G * rhs_r_;
  wrench_.noalias() = A_ * v_;
  wrench_ -= rhs_;  // = Nᵀ λ_n: every joint's wrench on its bodies
  // Leaves to root: a child's remaining wrench is its own joint's; its reaction goes to the parent.
  double change2 = 0.0;
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1> alpha;
  for (auto j = tree_.joints.rbegin(); j != tree_.joints.rend(); ++j) {
    const auto w = wrench_.segment<6>(tree_.bodies[j->child].col);
    alpha.noalias() = j->local * w;
    for (Eigen::Index k = 0; k < alpha.size(); ++k) {
      double& ln = lambda_[cs[j->constraints[k]].row];
      change2 += (alpha[k] - ln) * (alpha[k] - ln);
      ln = alpha[k];
    }
    if (j->parent >= 0)
      wrench_.segment<6>(tree_.bodies[j->parent].col).noalias() -= j->Np.transpose() * alpha;
  }
  wrench_change_ = std::sqrt(change2);
}

double BispSolver::FrictionSweep() {
  const auto& cs = *constraints_;
  double change = 0.0;
  for (Eigen::Index k = 0; k < beta_.size(); ++k) {
    const double old = beta_[k];
    const double u = qr_[k] + Wr_.col(k).dot(beta_);  // W_r symmetric
    beta_[k] = UpdateJointFrictionTangent(cs[k].mu, lambda_[cs[k].row], old, u, Wr_(k, k), 1.0);
    change = std::max(change, std::abs(beta_[k] - old));
  }
  return change;
}

Status BispSolver::Iterate() {
  const double scale = lambda_.size() > 0 ? lambda_.cwiseAbs().maxCoeff() : 0.0;
  for (int s = 0; s < set_.inner; ++s) {
    ++inner_sweeps_;
    if (FrictionSweep() <= set_.inner_tol * scale || PastDeadline()) break;
  }
  ContactStep();
  return CheckFinite();
}

void BispSolver::Current(Vec& v, Vec& lambda) const {
  lambda = lambda_;
  v = v_;  // A v = b + Jᵀλ: the contact step's velocity with the current impulses
}

std::vector<std::pair<std::string, double>> BispSolver::Info() const {
  return {{"reduced_dofs", static_cast<double>(tree_.reduced_dofs())},
          {"joints", static_cast<double>(tree_.joints.size())},
          {"inner_sweeps", static_cast<double>(inner_sweeps_)}};
}

SolverStats BispSolver::Stats() const {
  SolverStats s;
  s.primal_residual = wrench_change_;
  s.inner_iterations = inner_sweeps_;
  return s;
}

}  // namespace ncp
