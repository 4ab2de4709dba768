#include "solvers/sp/entry.h"

#include <memory>

#include "solvers/sp/sp.h"

namespace ncp {

SolverEntry SpEntry() {
  return WithSettings(
      SpSettings::Table(),
      {.name = "sp",
       .description = "staggered projections: contact QP and friction QP in turn, each by "
                      "projected Gauss-Seidel (Kaufman et al. 2008; 003 Alg. 2)",
       .local = LocalUse::kAsStored,
       .make = [] { return std::make_unique<SpSolver>(); },
       .deterministic = true,
       .joint_friction = true});
}

}  // namespace ncp
