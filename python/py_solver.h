// A solver written in Python, run by the harness like a built-in: the runner times its setup()
// and iterate() calls (the GIL is taken around each, inside the timed region, since that is a
// cost of running Python) and the evaluator scores its current() (untimed).
//
// The object (or a class, instantiated once per job) provides
//   setup(problem, settings)  -> None, or "not-applicable" / "failed" (message in .message)
//   iterate()                 -> None, or "diverged" / "failed"
//   current()                 -> (v, lam); v may be None on local problems
// and optionally `name` (default: the class name), `settings` (dict name -> default, set with
// settings={"name.key": value}), `description`, `message` (read after a non-running status),
// `info()` (dict of counters) and `warm_start(v, lam)` (called before setup() under --warm).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "solvers/registry.h"

namespace ncp::py {

// A registry entry whose factory makes a solver calling `obj`. Call with the GIL held; the entry
// may be used with the GIL released (its factory takes the GIL itself).
SolverEntry MakePythonEntry(const pybind11::object& obj);

// True when `obj` looks like a Python solver (has setup, iterate, current).
bool IsPythonSolver(const pybind11::handle& obj);

// The problems a solve() or run() hands to Python solvers, with what owns their memory, for as
// long as this object lives: a solver that keeps the problem its setup() got (self.p = problem)
// then shares that ownership and may use it after the run. A problem not registered is copied.
class ProblemOwners {
 public:
  ProblemOwners(std::shared_ptr<const void> owner, std::vector<const ContactProblem*> problems);
  ~ProblemOwners();
  ProblemOwners(const ProblemOwners&) = delete;
  ProblemOwners& operator=(const ProblemOwners&) = delete;

 private:
  std::shared_ptr<const void> owner_;
  std::vector<const ContactProblem*> problems_;
};

}  // namespace ncp::py
