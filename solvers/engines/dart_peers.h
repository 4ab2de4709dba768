// DART's boxed-LCP solvers (dart/constraint: DantzigBoxedLcpSolver, PgsBoxedLcpSolver) and ODE's
// dSolveLCP as DART ships it (libdart-external-odelcpsolver, ODE's lcp.cpp in double precision)
// on the boxed form of a contact problem: what DART's BoxedLcpConstraintSolver hands them.
//
// ODE itself (libode 0.16) is no frozen-problem peer: its dSolveLCP is not exported, and its
// SOR-LCP (dWorldQuickStep's solver) is internal to the stepper, building its rows from ODE
// bodies and joints (J and M⁻¹ of rigid bodies), never from a given matrix.
#pragma once

#include <vector>

#include "solvers/registry.h"

namespace ncp::engines {

std::vector<SolverEntry> DartEntries();

}  // namespace ncp::engines
