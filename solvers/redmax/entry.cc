#include "solvers/redmax/entry.h"

#include <memory>

#include "solvers/redmax/redmax.h"
#include "solvers/redmax/redmax_settings.h"

namespace ncp {

SolverEntry RedmaxEntry() {
  return WithSettings(
      RedmaxSettings::Table(),
      {.name = "redmax",
       .description = "RedMax: soft rows folded in as implicit maximal springs, PCG with the "
                      "projected block-Jacobi preconditioner (or CHOLMOD / dense), loop-closing "
                      "bilateral rows by the Schur complement; no contact (003 §3-4)",
       .local = LocalUse::kNone,
       .make = [] { return std::make_unique<RedmaxSolver>(); },
       .deterministic = true});
}

}  // namespace ncp
