#include "harness/run_options.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"

namespace ncp {

RunOptions MakeRunOptions(const RunArgs& a) {
  RunOptions opt;
  if (a.iters < 1) throw Error(fmt::format("--iters = {}: must be >= 1", a.iters));
  if (!(a.time_ms >= 0 && std::isfinite(a.time_ms)))
    throw Error(fmt::format("--time-ms = {}: must be finite and >= 0 (0: none)", a.time_ms));
  if (!(a.tol >= 0 && std::isfinite(a.tol)))
    throw Error(fmt::format("--tol = {}: must be finite and >= 0 (0: none)", a.tol));
  // Each repeat is a unit of work made up front: a count no timing needs would only fill memory.
  constexpr int kMaxRepeat = 1000;
  if (a.repeat < 1 || a.repeat > kMaxRepeat)
    throw Error(fmt::format("--repeat = {}: must be in [1, {}]", a.repeat, kMaxRepeat));
  // As simulate's: far past any machine, OpenMP would try to start that many threads a region.
  if (a.threads < 0 || a.threads > 1024)
    throw Error(
        fmt::format("--threads = {}: must be in [0, 1024] (0: OpenMP's default)", a.threads));
  if (a.trace < 0) throw Error(fmt::format("--trace = {}: must be >= 0", a.trace));
  if (!(a.step_tol >= 0 && a.step_tol < 1))
    throw Error(fmt::format("--step-tol = {}: must be >= 0 and < 1 (a relative step)", a.step_tol));
  opt.budget.iters = a.iters;
  opt.budget.time_ms = a.time_ms;
  opt.budget.tol = a.tol;
  opt.budget.step_tol = a.step_tol;
  opt.budget.tol_metric = MetricFromName(a.tol_metric.c_str());
  if (opt.budget.tol_metric == Metric::kFbAA)
    throw Error(
        "--tol-metric = fb_aa: must be an error (smaller is better); fb_aa is an "
        "accuracy (−log10), use fb");
  opt.repeat = a.repeat;
  opt.threads = a.threads;
  opt.trace_every = a.trace;
  opt.warm = WarmModeFromName(a.warm);
  return opt;
}

}  // namespace ncp
