// The registry entry of `redmax` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry RedmaxEntry();

}  // namespace ncp
