#include "harness/verdict_guard.h"

#include <fmt/format.h>

#include <cmath>

namespace ncp {

std::string SampleTooSmall(int problems, int solvers) {
  if (problems < kSmallSample)
    return fmt::format("{} problem{}, fewer than {}", problems, problems == 1 ? "" : "s",
                       kSmallSample);
  if (solvers < 2) return "one solver: nothing to compare";
  return "";
}

std::string StoppedShortOf(double run_tol, double verdict_tol) {
  if (!(run_tol > verdict_tol)) return "";  // NaN (no --tol) or tight enough
  return fmt::format("the runs stopped at --tol {:g}, short of {:g}", run_tol, verdict_tol);
}

}  // namespace ncp
