#include "solvers/ccs/entry.h"

#include <memory>

#include "solvers/ccs/ccs.h"
#include "solvers/common/lifted_solver.h"

namespace ncp {

SolverEntry CcsEntry() {
  // Runs on local (W, q) problems through their lifted form, as admm-full.
  return WithSettings(
      CcsSettings::Table(),
      {.name = "ccs",
       .description = "contact constraint splitting: ADMM with A + W factored once, the contacts "
                      "solved against a diagonal W (002 §V-E1; Daviet 2020)",
       .local = LocalUse::kLifted,
       .make = [] { return std::make_unique<LiftedSolver>(std::make_unique<CcsSolver>()); },
       .deterministic = true});
}

}  // namespace ncp
