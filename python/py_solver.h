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

#include "solvers/registry.h"

namespace ncp::py {

// A registry entry whose factory makes a solver calling `obj`. Call with the GIL held; the entry
// may be used with the GIL released (its factory takes the GIL itself).
SolverEntry MakePythonEntry(const pybind11::object& obj);

// True when `obj` looks like a Python solver (has setup, iterate, current).
bool IsPythonSolver(const pybind11::handle& obj);

}  // namespace ncp::py
