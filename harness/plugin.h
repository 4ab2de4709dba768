// Solver plug-ins: shared libraries that add solvers to the registry without editing the suite
// (`ncpbench run --plugin my_solver.so -s my-solver`, docs/adding_a_solver.md).
#pragma once

#include <string>
#include <vector>

namespace ncp {

// Name of the optional registration function a plug-in exports with C linkage:
//   extern "C" void ncpbench_register_solvers();
inline constexpr char kPluginRegisterSymbol[] = "ncpbench_register_solvers";

// Loads `path` (dlopen; the library stays loaded for the life of the process): its static
// initializers run (NCP_REGISTER_SOLVER), then its ncpbench_register_solvers() when it exports
// one. Returns the names of the solvers it added (a path loaded before returns the same names
// again). Throws ncp::Error "--plugin = path: reason"
// when the library cannot be loaded, registers nothing, or a registration fails.
std::vector<std::string> LoadPlugin(const std::string& path);

// The paths of the plug-ins loaded so far, in load order (an isolated job loads them again).
std::vector<std::string> LoadedPlugins();

}  // namespace ncp
