#include "solvers/apgd/entry.h"

#include <memory>

#include "solvers/apgd/apgd.h"

namespace ncp {

SolverEntry ApgdEntry() {
  return {.name = "apgd",
          .description =
              "accelerated projected gradient descent, adaptive step and restart (002 §V-C1)",
          .settings = ApgdSettings::Table().Specs(),
          .local = LocalUse::kAsStored,
          .make = [] { return std::make_unique<ApgdSolver>(); },
          .deterministic = true,
          .read_back = ApgdSettings::Table().ReadBack()};
}

}  // namespace ncp
