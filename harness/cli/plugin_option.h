// `--plugin FILE` for every command that resolves solver names: the shared libraries are loaded
// before the names resolve, so a plug-in's solvers run, list, profile and sweep like built-ins.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "harness/plugin.h"

namespace ncp::cli {

// Registers the option; the returned list holds the paths given, for LoadPlugins.
inline std::shared_ptr<std::vector<std::string>> AddPluginOption(CLI::App* cmd) {
  auto plugins = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--plugin", *plugins,
                  "shared library that registers solvers (repeatable; docs/adding_a_solver.md)");
  return plugins;
}

inline void LoadPlugins(const std::vector<std::string>& plugins) {
  for (const std::string& path : plugins) LoadPlugin(path);
}

}  // namespace ncp::cli
