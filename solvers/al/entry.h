// The registry entries of the augmented-Lagrangian solvers `canal`, `al-trdogleg` and
// `al-dampedsn` (listed by solvers/registry.cc).
#pragma once

#include <vector>

#include "solvers/registry.h"

namespace ncp {

std::vector<SolverEntry> AlEntries();

}  // namespace ncp
