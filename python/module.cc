// `import ncpbench`: problems, generators, solvers, the evaluator and the runner of the suite.
#include <pybind11/pybind11.h>

#include "common/error.h"
#include "python/bindings.h"

PYBIND11_MODULE(_ncpbench, m) {
  m.doc() = "ncpbench: frictional contact problems, solvers, evaluator and runner";
  // Bad input: the command line's one-line message, as a ValueError subclass.
  pybind11::register_exception<ncp::Error>(m, "Error", PyExc_ValueError);
  ncp::py::BindProblem(m);
  ncp::py::BindGenerate(m);
  ncp::py::BindEvaluate(m);
  ncp::py::BindRun(m);
}
