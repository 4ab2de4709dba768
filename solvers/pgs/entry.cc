#include "solvers/pgs/entry.h"

#include <memory>

#include "solvers/pgs/pgs.h"

namespace ncp {

SolverEntry PgsEntry() {
  return WithSettings(
      PgsSettings::Table(),
      {.name = "pgs",
       .description =
           "projected Gauss-Seidel on the dual, strict operator, SOR / NNCG options (004 §VII, "
           "000 §IV-B1)",
       .local = LocalUse::kAsStored,
       .make = [] { return std::make_unique<PgsSolver>(); },
       .deterministic = true,
       .joint_friction = true});
}

}  // namespace ncp
