// The machine-limit accounting of a results file (docs/roofline.md): per dataset and solver, the
// bytes and flops its iterations had to move (RunRecord::work_bytes/work_flops, counted by the
// solver from the problem's structure), the rates achieved and their fraction of the roofline
// bound min(peak flops, intensity × peak bandwidth) of the measured machine (machine_peaks.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/machine_peaks.h"
#include "harness/run_record.h"

namespace ncp {

struct RooflineRow {
  std::string dataset, solver;  // solver: its name, "#k" appended when settings differ
  int threads = 0;              // threads the runs used
  int runs = 0;
  double iterations = 0.0;                        // summed over the runs
  double bytes = 0.0, flops = 0.0, time_s = 0.0;  // summed; time: the iterations' own
  // time at the bound: Σ max(bytes / bandwidth, flops / flop rate) over the runs; NaN without
  // peaks.
  double bound_time_s = std::numeric_limits<double>::quiet_NaN();
  double GBs() const { return bytes / time_s * 1e-9; }
  double GFlops() const { return flops / time_s * 1e-9; }
  double Intensity() const { return flops / bytes; }  // flop per byte
  double Fraction() const { return bound_time_s / time_s; }
  bool MemoryBound(const MachinePeaks& p) const {
    return Intensity() < p.Flops(threads) / p.Bandwidth(threads);
  }
};

struct Roofline {
  std::optional<MachinePeaks> peaks;
  std::string peaks_unreadable;          // why the recorded peaks were not used, "" when none were
  std::vector<RooflineRow> rows;         // by dataset, then solver
  std::vector<std::string> not_counted;  // solvers with iterations but no count (sorted)
};

// Runs that iterated (iterations > 0, iteration time > 0) with finite counts are grouped by
// dataset, solver, settings and threads used.
Roofline ComputeRoofline(const std::vector<RunRecord>& rows,
                         const std::map<std::string, std::string>& run_attrs);

// The report section: the bounds and where they come from, the table, the solvers not counted;
// fractions "not assessed" when the file records no peaks. "" when no run iterated.
std::string RooflineMarkdown(const Roofline& r);

}  // namespace ncp
