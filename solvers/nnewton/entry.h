// The registry entry of `nnewton` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry NNewtonEntry();

}  // namespace ncp
