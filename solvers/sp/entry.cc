#include "solvers/sp/entry.h"

#include <memory>

#include "solvers/sp/sp.h"

namespace ncp {

SolverEntry SpEntry() {
  return {.name = "sp",
          .description =
              "staggered projections: contact QP and friction QP in turn, each by "
              "projected Gauss-Seidel (Kaufman et al. 2008; 003 Alg. 2)",
          .settings = SpSettings::Table().Specs(),
          .local = LocalUse::kAsStored,
          .make = [] { return std::make_unique<SpSolver>(); },
          .deterministic = true,
          .joint_friction = true,
          .read_back = SpSettings::Table().ReadBack()};
}

}  // namespace ncp
