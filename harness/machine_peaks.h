// The machine's measured limits, against which Solver::Work() is read (docs/roofline.md): the
// STREAM triad's bandwidth (a = b + s·c, arrays well beyond the last-level cache, best of
// several passes, 24 bytes per element as STREAM counts them) and a dense matrix product's
// flop rate (Eigen, 2n³ flops), each on one thread and on every thread of the process.
// Measured by `ncpbench peaks` on an idle machine and kept in a per-user cache file; results
// files record the cached figures, so a report reads the machine its runs ran on.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "harness/results_store.h"

namespace ncp {

struct MachinePeaks {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  double bandwidth_gbs_1 = kNone, bandwidth_gbs = kNone;  // one thread, every thread
  double gflops_1 = kNone, gflops = kNone;
  int threads = 0;           // every thread: the process' affinity mask
  double array_bytes = 0.0;  // the triad's three arrays together
  std::string measured;      // ISO date
  // The bound for a run on `threads` threads: one thread's, else every thread's.
  double Bandwidth(int threads_used) const {
    return threads_used > 1 ? bandwidth_gbs : bandwidth_gbs_1;
  }
  double Flops(int threads_used) const { return threads_used > 1 ? gflops : gflops_1; }
};

// Measures both peaks; `array_bytes` 0: four times the last-level cache, at least 64 MiB and at
// most an eighth of the memory. Takes about a second per GiB of arrays.
MachinePeaks MeasurePeaks(double array_bytes = 0.0);

// The cache file of this CPU model and thread count: under NCPBENCH_CACHE_DIR, else
// $XDG_CACHE_HOME/ncpbench, else $HOME/.cache/ncpbench; "" when none of them is set.
std::string PeaksCachePath();
// The cached peaks, or nothing when there is no cache file; throws Error naming the file, the
// line and the rule when it is corrupt.
std::optional<MachinePeaks> CachedPeaks();
// Writes the cache file atomically (its folders created); throws Error when it cannot.
void StorePeaks(const MachinePeaks& p);

// Adds the cached peaks to a results file's attributes; nothing when they were never measured
// (or the cache file cannot be read: a run does not fail for want of them).
void AddPeakAttrs(std::map<std::string, std::string>& attrs);
// The peaks a results file recorded, or nothing when it recorded none or unreadable ones (then
// `why`, when given, says what is wrong with them).
std::optional<MachinePeaks> PeaksFromAttrs(const std::map<std::string, std::string>& attrs,
                                           std::string* why = nullptr);

}  // namespace ncp
