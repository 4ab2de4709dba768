// Registry entries "siconos:<method>" for every Siconos method (see siconos_method.h).
#pragma once

#include <vector>

#include "solvers/registry.h"

namespace ncp::siconos {

std::vector<SolverEntry> Entries();

}  // namespace ncp::siconos
