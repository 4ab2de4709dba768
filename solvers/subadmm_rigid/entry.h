// The registry entry of `subadmm-rigid-cpu` (listed by solvers/registry.cc).
#pragma once

#include "solvers/registry.h"

namespace ncp {

SolverEntry SubAdmmRigidCpuEntry();

}  // namespace ncp
