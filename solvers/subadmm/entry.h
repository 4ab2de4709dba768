// The registry entries of the subsystem ADMM solvers `subadmm` and `subadmm-nobody` (listed by
// solvers/registry.cc).
#pragma once

#include <vector>

#include "solvers/registry.h"

namespace ncp {

std::vector<SolverEntry> SubAdmmEntries();

}  // namespace ncp
