// The registry entry of `ccs` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry CcsEntry();

}  // namespace ncp
