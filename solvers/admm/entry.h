// The registry entry of `admm-full` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry AdmmFullEntry();

}  // namespace ncp
