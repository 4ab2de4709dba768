#include "solvers/common/dual_solver.h"

#include "common/error.h"
#include "solvers/common/dual_update.h"
#include "solvers/common/work_count.h"

namespace ncp {

bool DualSolver::SetupDual(const ContactProblem& p, const WarmStart* warm) {
  try {
    dual_ = MakeDualProblem(p);
  } catch (const Error& e) {
    message_ = e.what();
    return false;
  }
  const int m = dual_.rows();
  lambda_ = warm && warm->lambda.size() == m ? warm->lambda : Vec::Zero(m);
  iterations_ = 0;
  return true;
}

Status DualSolver::CheckFinite() {
  if (AllFinite(lambda_)) return Status::kRunning;
  message_ = "non-finite or exploding multiplier";
  return Status::kDiverged;
}

WorkCount DualSolver::DualWork(double products, double passes, double flops) const {
  using namespace work;
  return products * SparseProduct(dual_.W) + Vectors(dual_.rows(), passes, flops);
}

void DualSolver::Current(Vec& v, Vec& lambda) const {
  lambda = lambda_;
  v = dual_.Velocity(lambda_);
}

}  // namespace ncp
