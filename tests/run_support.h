// One registered solver on one problem through the harness (RunOne: budget, evaluator, statuses),
// single thread, for tests that check a solver's outcome; a solver's default job.
#pragma once

#include <map>
#include <string>

#include "harness/runner.h"
#include "solvers/registry.h"

namespace ncp::testing {

// A registered solver with its default settings.
inline SolverJob Job(const char* name) {
  const SolverEntry& e = FindSolver(name);
  return {&e, Settings::Parse(name, e.settings, {})};
}

inline RunRecord RunSolverOn(const std::string& name, const ContactProblem& p, int iters,
                             double tol, const std::map<std::string, std::string>& settings = {},
                             WarmStart* solution = nullptr) {
  const SolverEntry& e = FindSolver(name);
  RunOptions opt;
  opt.budget.iters = iters;
  opt.budget.tol = tol;
  opt.threads = 1;
  return RunOne(p, Evaluator(p), SolverJob{&e, Settings::Parse(name, e.settings, settings)}, opt,
                nullptr, 0, solution);
}

}  // namespace ncp::testing
