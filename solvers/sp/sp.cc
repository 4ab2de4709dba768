#include "solvers/sp/sp.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "solvers/common/dual_update.h"

namespace ncp {

const SettingsTable<SpSettings>& SpSettings::Table() {
  static const auto t =
      SettingsTable<SpSettings>()
          .Choice<kCones>(&SpSettings::cone, "cone",
                          "friction set of the friction QP: exact = the Coulomb disk, box = "
                          "003's |λ_t,k| ≤ μ λ_n per tangent direction")
          .Choice<kContactQps>(&SpSettings::contact_qp, "contact_qp",
                               "contact QP solver: pgs = projected Gauss-Seidel sweeps, direct = "
                               "exact by a dense LDLT of its block of W (equality rows only: "
                               "bilateral, soft, joint-friction normals)")
          .Int(&SpSettings::inner, "inner", {.min = 1, .max = 1e6},
               "most projected Gauss-Seidel sweeps per QP")
          .Real(&SpSettings::inner_tol, "inner_tol", {.min = 0.0, .max = 1.0},
                "a QP stops when no λ moved more than inner_tol × max |λ| in a sweep");
  return t;
}

Status SpSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = SpSettings::Table().From(s);
  if (!SetupDual(p, warm)) return Status::kFailed;
  TangentSteps(dual_, tangent_step_);
  inner_sweeps_ = 0;
  eq_rows_.clear();
  if (set_.contact_qp == SpSettings::ContactQp::kDirect) {
    const auto& cs = *dual_.constraints;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      if (cs[i].type == ConstraintType::kContact || cs[i].type == ConstraintType::kUnilateral) {
        message_ = fmt::format(
            "sp: contact_qp = direct needs a contact QP of equality rows only "
            "(bilateral, soft, joint-friction normals); constraint {} is {}",
            i, ToString(cs[i].type));
        return Status::kNotApplicable;
      }
      eq_rows_.push_back(cs[i].row);
    }
    constexpr int kMaxDense = 4000;  // a dense LDLᵀ of 4000 rows: ~2e10 flops, 128 MB
    const int ne = static_cast<int>(eq_rows_.size());
    if (ne > kMaxDense) {
      message_ = fmt::format("sp: contact_qp = direct: {} equality rows, above the dense limit {}",
                             ne, kMaxDense);
      return Status::kNotApplicable;
    }
    Eigen::MatrixXd Wee(ne, ne);
    for (int a = 0; a < ne; ++a)
      for (int b = 0; b < ne; ++b) Wee(a, b) = dual_.W.coeff(eq_rows_[a], eq_rows_[b]);
    Wee_.compute(Wee);
    if (Wee_.info() != Eigen::Success || !(Wee_.vectorD().array() > 0).all()) {
      message_ =
          "sp: contact_qp = direct: the contact QP's block of W is singular (dependent rows)";
      return Status::kFailed;
    }
    eq_u_ = Vec::Zero(ne);
  }
  return Status::kRunning;
}

double SpSolver::Scale() const { return lambda_.size() > 0 ? lambda_.cwiseAbs().maxCoeff() : 0.0; }

double SpSolver::ContactSweep() {
  const auto& cs = *dual_.constraints;
  const SpMat& W = dual_.W;
  const Vec& q = dual_.q;
  double change = 0.0;
  for (const Constraint& c : cs) {
    const int r = c.row;
    const double u = q[r] + RowDot(W, r, lambda_);
    const double old = lambda_[r];
    if (c.type == ConstraintType::kContact) {
      const double ln = dual_.diag[r] > 0 ? old - u / dual_.diag[r] : old;
      lambda_[r] = ln > 0 ? ln : 0.0;
    } else {  // a joint-friction constraint's normal row is bilateral (its t row: friction QP)
      const ConstraintType t =
          c.type == ConstraintType::kJointFriction ? ConstraintType::kBilateral : c.type;
      lambda_[r] = UpdateScalarRow(t, old, u, dual_.diag[r], 1.0);
    }
    change = std::max(change, std::abs(lambda_[r] - old));
  }
  return change;
}

double SpSolver::FrictionSweep() {
  const auto& cs = *dual_.constraints;
  const SpMat& W = dual_.W;
  const Vec& q = dual_.q;
  double change = 0.0;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Constraint& c = cs[i];
    const int r = c.row;
    if (c.type == ConstraintType::kJointFriction) {  // 1 dof: box and disk coincide
      const double o = lambda_[r + 1];
      const double u = q[r + 1] + RowDot(W, r + 1, lambda_);
      lambda_[r + 1] = UpdateJointFrictionTangent(c.mu, lambda_[r], o, u, dual_.diag[r + 1], 1.0);
      change = std::max(change, std::abs(lambda_[r + 1] - o));
      continue;
    }
    if (c.type != ConstraintType::kContact) continue;
    const double o1 = lambda_[r + 1], o2 = lambda_[r + 2];
    if (set_.cone == SpSettings::Cone::kExact) {
      const double u1 = q[r + 1] + RowDot(W, r + 1, lambda_);
      const double u2 = q[r + 2] + RowDot(W, r + 2, lambda_);
      UpdateTangent(c.mu, lambda_[r], tangent_step_[i], 1.0, u1, u2, lambda_[r + 1],
                    lambda_[r + 2]);
    } else {
      // The box is a product of intervals: exact coordinate minimization, one direction at a time.
      const double bound = c.mu * lambda_[r];
      for (int k = 1; k <= 2; ++k) {
        const double u = q[r + k] + RowDot(W, r + k, lambda_);
        const double t =
            dual_.diag[r + k] > 0 ? lambda_[r + k] - u / dual_.diag[r + k] : lambda_[r + k];
        lambda_[r + k] = std::clamp(t, -bound, bound);
      }
    }
    change = std::max({change, std::abs(lambda_[r + 1] - o1), std::abs(lambda_[r + 2] - o2)});
  }
  return change;
}

void SpSolver::ContactDirect() {
  // u_e = 0 on the equality rows: λ_e ← λ_e − W_ee⁻¹ u_e (exact: u_e is affine in λ_e).
  for (std::size_t k = 0; k < eq_rows_.size(); ++k)
    eq_u_[k] = dual_.q[eq_rows_[k]] + RowDot(dual_.W, eq_rows_[k], lambda_);
  Wee_.solveInPlace(eq_u_);
  for (std::size_t k = 0; k < eq_rows_.size(); ++k) lambda_[eq_rows_[k]] -= eq_u_[k];
}

Status SpSolver::Iterate() {
  // The contact QP with friction held, then the friction QP with the new normals held. Past
  // the run's deadline each QP stops after its current sweep (a sweep over a large W is long).
  if (set_.contact_qp == SpSettings::ContactQp::kDirect) {
    ++inner_sweeps_;
    ContactDirect();
  } else {
    for (int s = 0; s < set_.inner; ++s) {
      ++inner_sweeps_;
      if (ContactSweep() <= set_.inner_tol * Scale() || PastDeadline()) break;
    }
  }
  for (int s = 0; s < set_.inner; ++s) {
    ++inner_sweeps_;
    if (FrictionSweep() <= set_.inner_tol * Scale() || PastDeadline()) break;
  }
  return CheckFinite();
}

std::vector<std::pair<std::string, double>> SpSolver::Info() const {
  return {{"inner_sweeps", static_cast<double>(inner_sweeps_)}};
}

SolverStats SpSolver::Stats() const {
  SolverStats s;
  s.inner_iterations = inner_sweeps_;
  return s;
}

}  // namespace ncp
