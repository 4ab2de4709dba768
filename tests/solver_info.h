// A solver's Info() entry by key, for tests that read its counters.
#pragma once

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "solvers/solver.h"

namespace ncp::testing {

// NaN, and a test failure, when the solver reports no such entry.
inline double InfoValue(const Solver& s, const std::string& key) {
  for (const auto& [k, v] : s.Info())
    if (k == key) return v;
  ADD_FAILURE() << "solver reports no info '" << key << "'";
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace ncp::testing
