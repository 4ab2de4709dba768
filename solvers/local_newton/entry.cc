#include "solvers/local_newton/entry.h"

#include <memory>

#include "solvers/local_newton/local_newton.h"

namespace ncp {

SolverEntry LocalNewtonEntry() {
  return WithSettings(
      LocalNewtonSettings::Table(),
      {.name = "local-newton",
       .description = "Alart–Curnier nonsmooth Newton with line search and proximal-point fallback",
       .local = LocalUse::kAsStored,
       .make = [] { return std::make_unique<LocalNewtonSolver>(); },
       .deterministic = true});
}

}  // namespace ncp
