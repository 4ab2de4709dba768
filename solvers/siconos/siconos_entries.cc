#include "solvers/siconos/siconos_entries.h"

#include "solvers/siconos/siconos_solver.h"

namespace ncp::siconos {

std::vector<SolverEntry> Entries() {
  std::vector<SolverEntry> e;
  for (const Method& m : Methods()) {
    e.push_back({.name = "siconos:" + m.name,
                 .description = m.description,
                 .settings = Table(m).Specs(),
                 .local = m.form == Form::kLocal ? LocalUse::kAsStored : LocalUse::kNone,
                 .make = [m] { return std::make_unique<SiconosSolver>(m); },
                 // Measured: g-prox-wr's iterates differ between 1 and 2 threads (MUMPS inside).
                 .deterministic = m.name != "g-prox-wr",
                 .iterate_allocates = "work arrays allocated inside Siconos Numerics per call",
                 // MUMPS (g-* methods, PROX) can call MPI_Abort or take gigabytes.
                 .isolated = true,
                 .read_back = Table(m).ReadBack()});
  }
  return e;
}

}  // namespace ncp::siconos
