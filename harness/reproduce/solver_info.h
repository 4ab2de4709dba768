// A solver's counters as the runner records them (RunRecord::solver_info, "k=v;k=v" from the
// solver's Info()), read back by the protocols that report them.
#pragma once

#include <cstdlib>
#include <string>

#include "solvers/settings.h"

namespace ncp {

// The counter `key` of `info`, or `missing` when the solver does not report it.
inline double InfoValue(const std::string& info, const std::string& key, double missing) {
  for (const auto& [k, v] : ParseKeyValues(info))
    if (k == key) return std::strtod(v.c_str(), nullptr);
  return missing;
}

}  // namespace ncp
