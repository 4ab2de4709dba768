#include "solvers/siconos/lent_work.h"

#include <Friction_cst.h>
#include <SolverOptions.h>

#include <algorithm>

namespace ncp::siconos {

void LentWork::Prepare(int solver_id, std::size_t n, std::size_t m) {
  solver_id_ = solver_id;
  dwork_.clear();
  iwork_.clear();
  admm_arrays_.clear();
  admm_ = {};
  if (solver_id == SICONOS_GLOBAL_FRICTION_3D_NSN_AC) {
    // 8m + 5(n + 2m) doubles and 12m CSparse indices in Siconos 4.4; twice that, so that a
    // layout a little larger in another release still fits.
    dwork_.assign(2 * (8 * m + 5 * (n + 2 * m)), 0.0);
    iwork_.assign(2 * 12 * m, 0);
  } else if (solver_id == SICONOS_GLOBAL_FRICTION_3D_ADMM) {
    dwork_.assign(2 * m + n, 0.0);  // exactly: any other size makes Siconos allocate its own
    const std::size_t nc = m / 3;
    admm_arrays_.assign(7 * m + 4 * nc, 0.0);
    double* p = admm_arrays_.data();
    for (double** a : {&admm_.reaction_hat, &admm_.reaction_k, &admm_.u_hat, &admm_.u_k, &admm_.u,
                       &admm_.b_full, &admm_.u_old}) {
      *a = p;
      p += m;
    }
    admm_.sliding_direction = p;
    admm_.sliding_direction_old = p + 2 * nc;
  }
}

void LentWork::Lend(SolverOptions* o) {
  if (dwork_.empty()) return;
  std::fill(dwork_.begin(), dwork_.end(), 0.0);
  o->dWork = dwork_.data();
  o->dWorkSize = dwork_.size();
  if (solver_id_ == SICONOS_GLOBAL_FRICTION_3D_NSN_AC) {
    std::fill(iwork_.begin(), iwork_.end(), 0);
    o->iWork = reinterpret_cast<int*>(iwork_.data());
    o->iWorkSize = 2 * iwork_.size();
    o->iparam[SICONOS_FRICTION_3D_NSN_MEMORY_ALLOCATED] = 1;
  } else {
    std::fill(admm_arrays_.begin(), admm_arrays_.end(), 0.0);
    o->solverData = &admm_;
  }
}

void LentWork::TakeBack(SolverOptions* o) {
  if (dwork_.empty()) return;
  if (o->dWork == dwork_.data()) o->dWork = nullptr;
  if (!iwork_.empty() && o->iWork == reinterpret_cast<int*>(iwork_.data())) o->iWork = nullptr;
  if (o->solverData == &admm_) o->solverData = nullptr;
}

}  // namespace ncp::siconos
