#include <cmath>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/machine_peaks.h"

namespace ncp::cli {

namespace {

struct PeaksArgs {
  bool remeasure = false;
  double array_mib = 0.0;
  bool array_given = false;
};

int RunPeaks(const PeaksArgs& a) {
  // CLI11's range check lets NaN through (no comparison holds for it).
  if (a.array_given && !(std::isfinite(a.array_mib) && a.array_mib >= 1.0))
    throw Error(fmt::format("--array-mib = {}: must be a number in [1, 1048576]", a.array_mib));
  std::optional<MachinePeaks> p = a.remeasure ? std::nullopt : CachedPeaks();
  const bool measured = !p;
  if (a.array_given && !measured)
    throw Error(
        fmt::format("--array-mib = {:g}: sizes a measurement, and the cached figures "
                    "are used (cache {}); add --remeasure",
                    a.array_mib, PeaksCachePath()));
  if (measured) {
    std::fprintf(stderr, "measuring the machine's peaks (about a second per GiB of arrays)...\n");
    p = MeasurePeaks(a.array_mib * (1 << 20));
    StorePeaks(*p);
  }
  std::printf(
      "memory bandwidth (STREAM triad, %.3g GB of arrays): 1 thread %.4g GB/s, %d threads "
      "%.4g GB/s\n",
      p->array_bytes * 1e-9, p->bandwidth_gbs_1, p->threads, p->bandwidth_gbs);
  std::printf(
      "dense flop rate (Eigen matrix product, n = 768): 1 thread %.4g GFLOP/s, %d threads "
      "%.4g GFLOP/s\n",
      p->gflops_1, p->threads, p->gflops);
  std::printf("%s %s; cache %s\n", measured ? "measured" : "cached, measured", p->measured.c_str(),
              PeaksCachePath().c_str());
  return 0;
}

}  // namespace

void AddPeaks(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "peaks",
      "the machine's memory bandwidth and flop rate, the bounds of the reports' roofline "
      "(measured once and cached; run it on an idle machine)");
  auto a = std::make_shared<PeaksArgs>();
  cmd->add_flag("--remeasure", a->remeasure, "measure again and replace the cached figures");
  CLI::Option* array_opt =
      cmd->add_option("--array-mib", a->array_mib,
                      "size of the triad's arrays together in MiB (default: four times the "
                      "last-level cache, at least 64)")
          ->check(CLI::Range(1.0, 1048576.0));
  cmd->callback([&action, a, array_opt] {
    a->array_given = array_opt->count() > 0;
    action = [a] { return RunPeaks(*a); };
  });
}

}  // namespace ncp::cli
