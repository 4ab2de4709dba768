// The registry entry of `sp` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry SpEntry();

}  // namespace ncp
