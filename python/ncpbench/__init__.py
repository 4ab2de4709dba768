"""ncpbench from Python: frictional contact problems, solvers, the evaluator and the runner.

    import ncpbench
    p = ncpbench.load("datasets/fclib/CubeH8.hdf5")[0]
    r = ncpbench.solve(p, "pgs", iters=200, trace=10)
    print(r.status, r.iterations, r.metrics["res004"], ncpbench.evaluate(p, r.v, r.lam)["natmap"])

A solver written in Python is any object (or class) with setup(problem, settings), iterate() and
current() -> (v, lam); ncpbench.solve and ncpbench.run time and score it like a built-in
(docs/adding_a_solver.md).
"""

import os as _os
import sys as _sys

# RTLD_GLOBAL: solver plug-ins loaded with load_plugin() resolve the suite's symbols against
# this module, as they do against the ncpbench executable.
_flags = _sys.getdlopenflags()
_sys.setdlopenflags(_flags | _os.RTLD_GLOBAL)
try:
    from ._ncpbench import (  # noqa: F401
        DualForm, Error, Evaluator, Problem, SolveResult, evaluate, generate, load, load_plugin,
        metrics, run, scenarios, solve, solvers, write_dataset, write_fclib)
finally:
    _sys.setdlopenflags(_flags)

from .results import read_results  # noqa: F401,E402
