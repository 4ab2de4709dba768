// `import ncpbench`: problems, generators, solvers, the evaluator and the runner of the suite.
#include <pybind11/pybind11.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "common/error.h"
#include "harness/isolated_run.h"
#include "python/bindings.h"

PYBIND11_MODULE(_ncpbench, m) {
  m.doc() = "ncpbench: frictional contact problems, solvers, evaluator and runner";
  // Bad input: the command line's one-line message, as a ValueError subclass.
  pybind11::register_exception<ncp::Error>(m, "Error", PyExc_ValueError);
  ncp::py::BindProblem(m);
  ncp::py::BindGenerate(m);
  ncp::py::BindEvaluate(m);
  ncp::py::BindRun(m);
  // Peer solvers that can end their process (an assertion in ODE, a segfault in Siconos) run as
  // `ncpbench isolated-job`, as from the command line: the executable built beside this module,
  // or the one NCPBENCH_CLI names. Without one they are refused, never run in the interpreter.
  const char* env = std::getenv("NCPBENCH_CLI");
  const std::string cli = env != nullptr && *env != '\0' ? env : NCP_CLI_PATH;
  if (access(cli.c_str(), X_OK) == 0)
    ncp::EnableIsolation(cli);
  else
    ncp::RefuseIsolated("the ncpbench executable that runs it is not at " + cli +
                        " (set NCPBENCH_CLI to its path)");
}
