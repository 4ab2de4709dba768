#include "solvers/pj/pj.h"

#include <omp.h>

#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"

namespace ncp {

const SettingsTable<PjSettings>& PjSettings::Table() {
  static const auto t = SettingsTable<PjSettings>().Real(
      &PjSettings::omega, "omega", {.min = 0.0, .max = 2.0, .min_open = true, .max_open = true},
      "relaxation factor (Jacobi needs < 1 on coupled contacts)");
  return t;
}

Status PjSolver::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  set_ = PjSettings::Table().From(s);
  if (!SetupDual(p, warm)) return Status::kFailed;
  TangentSteps(dual_, tangent_step_);
  u_ = Vec::Zero(dual_.rows());
  return Status::kRunning;
}

Status PjSolver::Iterate() {
  const auto& cs = *dual_.constraints;
  const int m = dual_.rows();
  const int nc = static_cast<int>(cs.size());
#pragma omp parallel if (m >= kParallelRows)
  {
#pragma omp for schedule(static)
    for (int r = 0; r < m; ++r) u_[r] = dual_.q[r] + RowDot(dual_.W, r, lambda_);
#pragma omp for schedule(static)
    for (int i = 0; i < nc; ++i) {
      const Constraint& c = cs[i];
      const int r = c.row;
      if (c.type != ConstraintType::kContact) {
        lambda_[r] = UpdateScalarRow(c.type, lambda_[r], u_[r], dual_.diag[r], set_.omega);
        continue;
      }
      const double ln =
          dual_.diag[r] > 0 ? lambda_[r] - set_.omega * u_[r] / dual_.diag[r] : lambda_[r];
      lambda_[r] = ln > 0 ? ln : 0.0;
      UpdateTangent(c.mu, lambda_[r], tangent_step_[i], set_.omega, u_[r + 1], u_[r + 2],
                    lambda_[r + 1], lambda_[r + 2]);
    }
  }
  ++iterations_;
  return CheckFinite();
}

// Per iteration: W once; the vectors q, λ (read, then written), u_ (written, then read) and
// diag, once each: 4 passes; about 6 flops per row of projection.
WorkCount PjSolver::Work() const { return iterations_ * DualWork(1, 4, 6); }

int PjSolver::ThreadsUsed() const {
  return dual_.rows() >= kParallelRows ? omp_get_max_threads() : 1;
}

}  // namespace ncp
