// Runs the built `ncpbench` and captures exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ncp::testing {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline CliResult RunCli(const std::string& args, const std::filesystem::path& dir) {
  const std::string out = (dir / "stdout.txt").string(), err = (dir / "stderr.txt").string();
  const std::string cmd = std::string(NCP_CLI) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  return r;
}

// The folders FreshDir made in this process, removed when it exits.
inline std::vector<std::filesystem::path>& FreshDirs() {
  static std::vector<std::filesystem::path> dirs;
  return dirs;
}

// The process id keeps two test runs on one machine (a CI run and a developer's) apart.
inline std::filesystem::path FreshDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ncpbench_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (FreshDirs().empty()) {
    std::atexit([] {
      std::error_code ec;
      for (const auto& d : FreshDirs()) std::filesystem::remove_all(d, ec);
    });
  }
  FreshDirs().push_back(dir);
  return dir;
}

}  // namespace ncp::testing
