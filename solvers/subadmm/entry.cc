#include "solvers/subadmm/entry.h"

#include <memory>

#include "solvers/subadmm/subadmm.h"
#include "solvers/subadmm/subadmm_nobody.h"

namespace ncp {

std::vector<SolverEntry> SubAdmmEntries() {
  return {
      WithSettings(
          SubAdmmSettings::Table(),
          {.name = "subadmm",
           .description =
               "subsystem ADMM with body splitting, tree factorization, adaptive beta (004 §VI)",
           .local = LocalUse::kNone,
           .make = [] { return std::make_unique<SubAdmmSolver>(); },
           .deterministic = true}),
      WithSettings(
          SubAdmmNobodySettings::Table(),
          {.name = "subadmm-nobody",
           .description =
               "subsystem ADMM without body splitting (000 eqs. 15-23; 004 Table III No Body)",
           .local = LocalUse::kNone,
           .make = [] { return std::make_unique<SubAdmmNobodySolver>(); },
           .deterministic = true}),
  };
}

}  // namespace ncp
