// The registry entry of `local-newton` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry LocalNewtonEntry();

}  // namespace ncp
