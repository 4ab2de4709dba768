// Shared by the plot tests: the interpreter that sees matplotlib and h5py, and a command's exit
// code.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>

namespace ncp::testing {

inline constexpr char kPython[] = "/usr/bin/python3";

inline int ExitCode(const std::string& command) {
  const int status = std::system(command.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace ncp::testing
