#include "solvers/nnewton/entry.h"

#include <memory>

#include "solvers/common/lifted_solver.h"
#include "solvers/nnewton/nnewton.h"

namespace ncp {

SolverEntry NNewtonEntry() {
  // Runs on local (W, q) problems through their lifted form; global problems reach it unchanged.
  return WithSettings(
      NNewtonSettings::Table(),
      {.name = "nnewton",
       .description = "nonsmooth Newton on Fischer-Burmeister (normal) and natural-map (friction) "
                      "functions, sparse LU, Armijo line search (000 §IV-B4)",
       .local = LocalUse::kLifted,
       .make = [] { return std::make_unique<LiftedSolver>(std::make_unique<NNewtonSolver>()); },
       .deterministic = true,
       .iterate_allocates = "Eigen SparseLU factorization per Newton step"});
}

}  // namespace ncp
