// The registry entry of `cond` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry CondEntry();

}  // namespace ncp
