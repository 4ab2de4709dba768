// Maps solver names to factories and setting lists; the only way the harness creates solvers.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solvers/solver.h"

namespace ncp {

struct SolverEntry {
  std::string name;
  std::string description;  // one line, with the paper reference
  std::vector<SettingSpec> settings;
  bool supports_local = false;  // runs on fclib local (W, q) problems
  std::function<std::unique_ptr<Solver>()> make;
};

const std::vector<SolverEntry>& Solvers();
// Throws ncp::Error "solver 'x': unknown (known: ...)".
const SolverEntry& FindSolver(const std::string& name);

}  // namespace ncp
