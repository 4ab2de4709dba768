#include "solvers/pj/entry.h"

#include <memory>

#include "solvers/pj/pj.h"

namespace ncp {

SolverEntry PjEntry() {
  return {.name = "pj",
          .description = "projected Jacobi on the dual, parallel (000 §IV-B2)",
          .settings = PjSettings::Table().Specs(),
          .local = LocalUse::kAsStored,
          .make = [] { return std::make_unique<PjSolver>(); },
          .deterministic = true,
          .read_back = PjSettings::Table().ReadBack()};
}

}  // namespace ncp
