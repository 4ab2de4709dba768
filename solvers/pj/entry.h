// The registry entry of `pj` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry PjEntry();

}  // namespace ncp
