#include "solvers/apgd/entry.h"

#include <memory>

#include "solvers/apgd/apgd.h"

namespace ncp {

SolverEntry ApgdEntry() {
  return WithSettings(
      ApgdSettings::Table(),
      {.name = "apgd",
       .description =
           "accelerated projected gradient descent, adaptive step and restart (002 §V-C1)",
       .local = LocalUse::kAsStored,
       .make = [] { return std::make_unique<ApgdSolver>(); },
       .deterministic = true});
}

}  // namespace ncp
