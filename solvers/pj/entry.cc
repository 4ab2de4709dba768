#include "solvers/pj/entry.h"

#include <memory>

#include "solvers/pj/pj.h"

namespace ncp {

SolverEntry PjEntry() {
  return WithSettings(PjSettings::Table(),
                      {.name = "pj",
                       .description = "projected Jacobi on the dual, parallel (000 §IV-B2)",
                       .local = LocalUse::kAsStored,
                       .make = [] { return std::make_unique<PjSolver>(); },
                       .deterministic = true});
}

}  // namespace ncp
