#include "harness/plugin.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_kind.h"
#include "harness/system_info.h"
#include "solvers/registry.h"

namespace ncp {

namespace {
std::vector<LoadedPluginFile>& LoadOrder() {
  static std::vector<LoadedPluginFile> order;
  return order;
}
}  // namespace

std::vector<LoadedPluginFile> LoadedPlugins() { return LoadOrder(); }

std::string PluginFileHash(const std::string& path) {
  try {
    return FileHash(path);
  } catch (const Error&) {
    return "unreadable";
  }
}

std::vector<std::string> LoadPlugin(const std::string& path) {
  // Loading a library twice runs its initializers once: a repeat returns what it registered.
  // Keyed by dlopen's handle, which is one for every path, link or rebuilt file that the
  // dynamic loader takes for a library it holds.
  static std::map<void*, std::vector<std::string>> loaded;
  RefuseNulInPath(path);
  // An isolated job is told the path in a line of its job file.
  if (path.find_first_of("\n\r") != std::string::npos)
    throw Error(
        fmt::format("--plugin = {}: holds a line break: name the library by a path "
                    "without one",
                    path));
  // dlopen would block on a FIFO until a writer came, and read a device.
  if (const std::string kind = NonRegularKind(path); !kind.empty())
    throw Error(
        fmt::format("--plugin = {}: is {}: a plug-in is a shared library file", path, kind));
  // Its registrations would be refused, and jobs hold pointers into the registry.
  if (RegistryFrozen())
    throw Error(
        fmt::format("--plugin = {}: cannot be loaded while jobs run (from a solver or "
                    "another thread): load it before",
                    path));
  const std::size_t before = Solvers().size();
  // A bare name would be searched on the library path: a file name is meant.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // The bytes about to be loaded, for the results (a rebuilt library shows).
  const std::string hash = PluginFileHash(file);
  // RTLD_GLOBAL: a plug-in may itself be split into libraries that share its symbols.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) throw Error(fmt::format("--plugin = {}: cannot load: {}", path, dlerror()));
  if (auto it = loaded.find(handle); it != loaded.end()) {
    dlclose(handle);  // the count this dlopen added
    return it->second;
  }
  // A load that fails registers nothing and unloads the library (where the loader can: one with
  // NODELETE or unique symbols stays, and a retry then finds nothing registered).
  const auto refuse = [&](const std::string& why) {
    bool forgotten = true;
    try {
      ForgetSolversFrom(before);
    } catch (const Error&) {
      forgotten = false;  // a job started meanwhile: its entries may point into the library
    }
    if (forgotten) dlclose(handle);
    return Error(fmt::format("--plugin = {}: {}", path, why));
  };
  if (std::string err = TakeRegistrationError(); !err.empty()) throw refuse(err);
  using RegisterFn = void (*)();
  if (auto fn = reinterpret_cast<RegisterFn>(dlsym(handle, kPluginRegisterSymbol))) {
    bool threw = false;
    std::string thrown;
    try {
      fn();
    } catch (const std::exception& e) {
      threw = true, thrown = e.what();
    } catch (...) {
      threw = true, thrown = "threw an exception that is not a std::exception";
    }
    if (threw) throw refuse(fmt::format("{}: {}", kPluginRegisterSymbol, thrown));
  }
  if (std::string err = TakeRegistrationError(); !err.empty()) throw refuse(err);
  std::vector<std::string> added;
  for (std::size_t i = before; i < Solvers().size(); ++i) added.push_back(Solvers()[i].name);
  if (added.empty())
    throw refuse(
        fmt::format("registers no solver (expected NCP_REGISTER_SOLVER or an exported "
                    "{}())",
                    kPluginRegisterSymbol));
  loaded[handle] = added;
  std::error_code ec;
  LoadOrder().push_back({std::filesystem::weakly_canonical(path, ec).string(), hash});
  return added;
}

}  // namespace ncp
