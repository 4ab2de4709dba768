#include "harness/plugin.h"

#include <dlfcn.h>
#include <sys/stat.h>

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
  // Keyed by the file itself (device and inode), so that a link or another path to it is one.
  static std::map<std::string, std::vector<std::string>> loaded;
  RefuseNulInPath(path);
  // dlopen would block on a FIFO until a writer came, and read a device.
  if (const std::string kind = NonRegularKind(path); !kind.empty())
    throw Error(
        fmt::format("--plugin = {}: is {}: a plug-in is a shared library file", path, kind));
  struct stat st {};
  const std::string key =
      stat(path.c_str(), &st) == 0 ? fmt::format("{}:{}", st.st_dev, st.st_ino) : path;
  if (auto it = loaded.find(key); it != loaded.end()) return it->second;
  const std::size_t before = Solvers().size();
  // A bare name would be searched on the library path: a file name is meant.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // RTLD_GLOBAL: a plug-in may itself be split into libraries that share its symbols.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) throw Error(fmt::format("--plugin = {}: cannot load: {}", path, dlerror()));
  // A load that fails registers nothing and unloads the library, so that a retry (from Python,
  // after the plug-in is fixed) runs its initializers again.
  const auto refuse = [&](const std::string& why) {
    ForgetSolversFrom(before);
    dlclose(handle);
    return Error(fmt::format("--plugin = {}: {}", path, why));
  };
  if (std::string err = TakeRegistrationError(); !err.empty()) throw refuse(err);
  using RegisterFn = void (*)();
  if (auto fn = reinterpret_cast<RegisterFn>(dlsym(handle, kPluginRegisterSymbol))) {
    std::string thrown;
    try {
      fn();
    } catch (const std::exception& e) {
      thrown = e.what();
    } catch (...) {
      thrown = "threw an exception that is not a std::exception";
    }
    if (!thrown.empty()) throw refuse(fmt::format("{}: {}", kPluginRegisterSymbol, thrown));
  }
  if (std::string err = TakeRegistrationError(); !err.empty()) throw refuse(err);
  std::vector<std::string> added;
  for (std::size_t i = before; i < Solvers().size(); ++i) added.push_back(Solvers()[i].name);
  if (added.empty())
    throw refuse(
        fmt::format("registers no solver (expected NCP_REGISTER_SOLVER or an exported "
                    "{}())",
                    kPluginRegisterSymbol));
  loaded[key] = added;
  std::error_code ec;  // an isolated job loads it again by this path
  LoadOrder().push_back(std::filesystem::weakly_canonical(path, ec).string());
  return added;
}

}  // namespace ncp
