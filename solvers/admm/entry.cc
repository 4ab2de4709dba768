#include "solvers/admm/entry.h"

#include <memory>

#include "solvers/admm/admm_full.h"
#include "solvers/common/lifted_solver.h"

namespace ncp {

SolverEntry AdmmFullEntry() {
  // Runs on local (W, q) problems through their lifted form; global problems reach it unchanged.
  return WithSettings(
      AdmmFullSettings::Table(),
      {.name = "admm-full",
       .description = "full-system ADMM with adaptive beta (004:28, 004:43; 000 FADMM)",
       .local = LocalUse::kLifted,
       .make = [] { return std::make_unique<LiftedSolver>(std::make_unique<AdmmFullSolver>()); },
       .deterministic = true});
}

}  // namespace ncp
