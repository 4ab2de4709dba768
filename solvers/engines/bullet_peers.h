// Bullet's MLCP solvers (BulletDynamics/MLCPSolvers, double-precision build `-float64`) on the
// boxed form of a contact problem: what btMLCPSolver hands them in a Bullet step, A x = b + w with
// friction bounds tied to the normal through limitDependency.
#pragma once

#include <vector>

#include "solvers/registry.h"

namespace ncp::engines {

std::vector<SolverEntry> BulletEntries();

}  // namespace ncp::engines
