#include "solvers/siconos/siconos_entries.h"

#include "solvers/siconos/siconos_solver.h"

namespace ncp::siconos {

std::vector<SolverEntry> Entries() {
  std::vector<SolverEntry> e;
  for (const Method& m : Methods())
    e.push_back({"siconos:" + m.name, m.description, Specs(m), m.form == Form::kLocal ? LocalUse::kAsStored : LocalUse::kNone,
                 [m] { return std::make_unique<SiconosSolver>(m); }});
  return e;
}

}  // namespace ncp::siconos
