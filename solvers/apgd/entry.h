// The registry entry of `apgd` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry ApgdEntry();

}  // namespace ncp
