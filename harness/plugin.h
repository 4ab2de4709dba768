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

// A loaded plug-in: its canonical path (an isolated job loads it again by it) and the hash of
// its bytes when it was loaded (HashHex; results record it, so that a rebuilt library shows).
struct LoadedPluginFile {
  std::string path, hash;
};
// The plug-ins loaded so far, in load order.
std::vector<LoadedPluginFile> LoadedPlugins();

// The hash of a plug-in file's bytes (HashHex), or "unreadable" for one that loads but cannot
// be read (execute-only): what LoadedPluginFile::hash records.
std::string PluginFileHash(const std::string& path);

}  // namespace ncp
