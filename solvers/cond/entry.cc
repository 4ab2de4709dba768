#include "solvers/cond/entry.h"

#include <memory>

#include "solvers/common/lifted_solver.h"
#include "solvers/cond/cond.h"

namespace ncp {

SolverEntry CondEntry() {
  // Runs on local (W, q) problems through their lifted form; global problems reach it unchanged.
  return WithSettings(
      cond::CondSettings::Table(),
      {.name = "cond",
       .description =
           "contact nodalization and diagonalization: V-FPI with virtual nodes, strict/proximal "
           "operator, Frobenius/BB step, Chebyshev acceleration (002 Alg. 1-3)",
       .local = LocalUse::kLifted,
       .make = [] { return std::make_unique<LiftedSolver>(std::make_unique<cond::CondSolver>()); },
       .deterministic = false});
}

}  // namespace ncp
