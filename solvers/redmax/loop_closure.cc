#include "solvers/redmax/loop_closure.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ncp {

Status LoopClosure::Setup(const SpMat& G, ReducedSolve& solve, std::string* why) {
  const int mg = static_cast<int>(G.rows()), n = static_cast<int>(G.cols());
  Y_.setZero(n, mg);
  Sinv_.setZero(mg, mg);
  tmp_ = Vec::Zero(mg);
  rank_ = 0;
  if (mg == 0) return Status::kRunning;
  const SpMat Gt = G.transpose();
  Vec col(n), y(n);
  for (int k = 0; k < mg; ++k) {
    col = Gt.col(k);
    std::string reason;
    if (!solve.Solve(col, y, &reason)) {
      *why = fmt::format("Schur complement column {} of {}: {}", k, mg, reason);
      return Status::kFailed;
    }
    if (solve.stopped()) {
      *why = fmt::format(
          "the time budget ran out while forming the Schur complement (column {} "
          "of {})",
          k, mg);
      return Status::kStopped;  // the harness sees its time budget spent
    }
    Y_.col(k) = y;
  }
  Eigen::MatrixXd S = G * Y_;
  S = 0.5 * (S + S.transpose()).eval();  // PCG columns are symmetric only to pcg_tol
  if (!S.allFinite()) {
    *why = "the Schur complement S = G A'⁻¹ Gᵀ has non-finite entries";
    return Status::kFailed;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);
  const Vec& w = eig.eigenvalues();  // ascending
  const double top = std::max(w.cwiseAbs().maxCoeff(), 1e-300);
  if (w[0] < -1e-10 * top) {
    *why = fmt::format(
        "the Schur complement S = G A'⁻¹ Gᵀ of the {} bilateral rows has the "
        "eigenvalue {:.3e} (largest {:.3e}): S must be positive semi-definite "
        "(A' not positive definite?)",
        mg, w[0], top);
    return Status::kFailed;
  }
  const Eigen::MatrixXd& Q = eig.eigenvectors();
  for (int k = 0; k < mg; ++k) {
    if (!(w[k] > 1e-12 * top)) continue;
    Sinv_.noalias() += (1.0 / w[k]) * Q.col(k) * Q.col(k).transpose();
    ++rank_;
  }
  return Status::kRunning;
}

}  // namespace ncp
