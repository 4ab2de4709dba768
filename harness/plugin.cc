#include "harness/plugin.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_kind.h"
#include "solvers/registry.h"

namespace ncp {

namespace {
std::vector<std::string>& LoadOrder() {
  static std::vector<std::string> order;
  return order;
}
}  // namespace

std::vector<std::string> LoadedPlugins() { return LoadOrder(); }

std::vector<std::string> LoadPlugin(const std::string& path) {
  // Loading a library twice runs its initializers once: a repeat returns what it registered.
  static std::map<std::string, std::vector<std::string>> loaded;
  RefuseNulInPath(path);
  std::error_code ec;
  const std::string key = std::filesystem::weakly_canonical(path, ec).string();
  if (auto it = loaded.find(key); it != loaded.end()) return it->second;
  const std::size_t before = Solvers().size();
  // A bare name would be searched on the library path: a file name is meant.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // RTLD_GLOBAL: a plug-in may itself be split into libraries that share its symbols.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) throw Error(fmt::format("--plugin = {}: cannot load: {}", path, dlerror()));
  if (std::string err = TakeRegistrationError(); !err.empty())
    throw Error(fmt::format("--plugin = {}: {}", path, err));
  using RegisterFn = void (*)();
  if (auto fn = reinterpret_cast<RegisterFn>(dlsym(handle, kPluginRegisterSymbol))) {
    try {
      fn();
    } catch (const std::exception& e) {
      throw Error(fmt::format("--plugin = {}: {}: {}", path, kPluginRegisterSymbol, e.what()));
    }
  }
  if (std::string err = TakeRegistrationError(); !err.empty())
    throw Error(fmt::format("--plugin = {}: {}", path, err));
  std::vector<std::string> added;
  for (std::size_t i = before; i < Solvers().size(); ++i) added.push_back(Solvers()[i].name);
  if (added.empty())
    throw Error(
        fmt::format("--plugin = {}: registers no solver (expected NCP_REGISTER_SOLVER or "
                    "an exported {}())",
                    path, kPluginRegisterSymbol));
  loaded[key] = added;
  LoadOrder().push_back(key);
  return added;
}

}  // namespace ncp
