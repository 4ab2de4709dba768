#include "solvers/redmax/reduced_solve.h"

#include <fmt/format.h>

namespace ncp {

Status ReducedSolve::Setup(const ContactProblem& p, const std::vector<int>& soft,
                           const ReducedOperator& op, const RedmaxSettings& set,
                           std::function<bool()> stop, std::string* why) {
  set_ = set;
  op_ = &op;
  stop_ = std::move(stop);
  pcg_total_ = pcg_last_ = factorizations_ = 0;
  stopped_ = false;
  use_tree_op_ = false;
  const int n = op.dofs();
  switch (set.linear) {
    case RedmaxSettings::Linear::kPcgPbj: {
      std::string reason;
      if (!trees_.Init(p, &reason)) {
        *why = fmt::format(
            "linear=pcg-pbj needs the projected block-Jacobi tree route: {}; "
            "linear=cholmod or dense apply",
            reason);
        return Status::kNotApplicable;
      }
      pbj_.Init(p, soft, trees_);
      // Where the blocks do not reproduce J_s, PCG multiplies by the sparse A' instead.
      use_tree_op_ = tree_op_.Init(p, soft, trees_, &reason);
      rates_.assign(soft.size(), 0.0);
      ++factorizations_;
      if (!pbj_.Factorize()) {
        *why =
            "the preconditioner's articulated-body factorization met a non-positive pivot "
            "(P must be SPD)";
        return Status::kFailed;
      }
      pcg_.Resize(n);
      return Status::kRunning;
    }
    case RedmaxSettings::Linear::kCholmod: {
      const SpMat K = op.Assemble();
      chol_ = std::make_unique<CholmodLLT>();
      chol_->Analyze(K);
      ++factorizations_;
      if (!chol_->Factorize(K)) {
        *why = "CHOLMOD: A' = A + J_sᵀ D J_s is not positive definite";
        return Status::kFailed;
      }
      // One solve here: a supernodal factor sizes its solve workspaces at the first call.
      Vec r = Vec::Zero(n), x(n);
      chol_->Solve(r.data(), x.data());
      return Status::kRunning;
    }
    case RedmaxSettings::Linear::kDense: {
      ++factorizations_;
      llt_.compute(Eigen::MatrixXd(op.Assemble()));
      if (llt_.info() != Eigen::Success) {
        *why = "dense LLT: A' = A + J_sᵀ D J_s is not positive definite";
        return Status::kFailed;
      }
      return Status::kRunning;
    }
  }
  *why = "unknown linear solver";
  return Status::kFailed;
}

void ReducedSolve::ApplyOperator(const Vec& x, Vec& y) {
  if (use_tree_op_) {
    tree_op_.Apply(x, y);
  } else {
    op_->Apply(x, y);
  }
}

void ReducedSolve::SoftMultipliers(const Vec& v, Vec& lambda_s) {
  if (use_tree_op_) {
    tree_op_.SoftRates(v, rates_.data());
    op_->SoftMultipliersFromRates(rates_.data(), lambda_s);
  } else {
    op_->SoftMultipliers(v, lambda_s);
  }
}

bool ReducedSolve::Solve(const Vec& r, Vec& x, std::string* why, double reference) {
  stopped_ = false;
  switch (set_.linear) {
    case RedmaxSettings::Linear::kPcgPbj: {
      const Pcg::Result res = pcg_.Solve([this](const Vec& a, Vec& y) { ApplyOperator(a, y); },
                                         [this](const Vec& a, Vec& z) { pbj_.Apply(a, z); },
                                         [this] { return stop_ && stop_(); }, r, x, set_.pcg_tol,
                                         set_.pcg_max_iters, reference);
      pcg_last_ = res.iterations;
      pcg_total_ += res.iterations;
      stopped_ = res.end == Pcg::End::kStopped;
      if (res.end == Pcg::End::kMaxIterations) {
        *why = fmt::format(
            "PCG reached pcg_max_iters = {} with relative residual {:.3e} > "
            "pcg_tol = {:.1e}",
            set_.pcg_max_iters, res.relative_residual, set_.pcg_tol);
        return false;
      }
      if (res.end == Pcg::End::kBreakdown) {
        *why = fmt::format(
            "PCG broke down after {} iterations (pᵀA'p ≤ 0: A' not positive "
            "definite, or non-finite values)",
            res.iterations);
        return false;
      }
      return true;
    }
    case RedmaxSettings::Linear::kCholmod:
      chol_->Solve(r.data(), x.data());
      return true;
    case RedmaxSettings::Linear::kDense:
      x = r;
      llt_.solveInPlace(x);
      return true;
  }
  return true;
}

}  // namespace ncp
