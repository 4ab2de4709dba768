// The registry entry of `bisp` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry BispEntry();

}  // namespace ncp
