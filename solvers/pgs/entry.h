// The registry entry of `pgs` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry PgsEntry();

}  // namespace ncp
