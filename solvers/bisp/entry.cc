#include "solvers/bisp/entry.h"

#include <memory>

#include "solvers/bisp/bisp.h"

namespace ncp {

SolverEntry BispEntry() {
  return WithSettings(
      BispSettings::Table(),
      {.name = "bisp",
       .description = "bilateral staggered projections: joint friction with the contact QP "
                      "replaced by the reduced-coordinate solve (003 Alg. 3)",
       .local = LocalUse::kNone,
       .make = [] { return std::make_unique<BispSolver>(); },
       .deterministic = true,
       .joint_friction = true});
}

}  // namespace ncp
