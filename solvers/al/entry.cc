#include "solvers/al/entry.h"

#include <memory>

#include "solvers/al/al_semismooth.h"
#include "solvers/al/canal.h"
#include "solvers/common/lifted_solver.h"

namespace ncp {

std::vector<SolverEntry> AlEntries() {
  using G = AlSemismoothSolver::Globalization;
  // All run on local (W, q) problems through their lifted form; global problems reach them
  // unchanged.
  return {
      WithSettings(
          CanalSettings::Table(),
          {.name = "canal",
           .description =
               "cascaded Newton augmented Lagrangian, exact line search, beta schedule (004 "
               "§V, Alg. 1)",
           .local = LocalUse::kLifted,
           .make = [] { return std::make_unique<LiftedSolver>(std::make_unique<CanalSolver>()); },
           .deterministic = true,
           .iterate_allocates = "CHOLMOD numeric factorization per Newton step"}),
      WithSettings(
          AlSettings::Table(),
          {.name = "al-trdogleg",
           .description =
               "AL with semismooth Newton on 004:19, trust-region dogleg (004 §VII-D1 ablation)",
           .local = LocalUse::kLifted,
           .make =
               [] {
                 return std::make_unique<LiftedSolver>(
                     std::make_unique<AlSemismoothSolver>(G::kTrustRegionDogleg));
               },
           .deterministic = true,
           .iterate_allocates = "Eigen SparseLU factorization per Newton step"}),
      WithSettings(AlSettings::Table(),
                   {.name = "al-dampedsn",
                    .description = "AL with damped semismooth Newton on 004:19, Armijo "
                                   "backtracking (004 §VII-D1 ablation)",
                    .local = LocalUse::kLifted,
                    .make =
                        [] {
                          return std::make_unique<LiftedSolver>(
                              std::make_unique<AlSemismoothSolver>(G::kDampedNewton));
                        },
                    .deterministic = true,
                    .iterate_allocates = "Eigen SparseLU factorization per Newton step"}),
  };
}

}  // namespace ncp
