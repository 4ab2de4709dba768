// The options of a run as the user gives them (command line or Python), checked into
// RunOptions with one message per rule, so that both front ends refuse bad input identically.
#pragma once

#include <string>

#include "harness/runner.h"

namespace ncp {

struct RunArgs {
  int iters = 1000;
  double time_ms = 0.0;
  double tol = 0.0;
  std::string tol_metric = "res004";
  int repeat = 1;
  int threads = 0;
  int trace = 0;
  std::string warm = "none";
  double step_tol = 0.0;  // Budget::step_tol
};

// Throws ncp::Error "--iters = 0: must be >= 1" and the like, named as the command line's flags.
RunOptions MakeRunOptions(const RunArgs& a);

}  // namespace ncp
