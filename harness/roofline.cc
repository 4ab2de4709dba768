#include "harness/roofline.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "harness/markdown.h"

namespace ncp {

Roofline ComputeRoofline(const std::vector<RunRecord>& rows,
                         const std::map<std::string, std::string>& run_attrs) {
  Roofline out;
  out.peaks = PeaksFromAttrs(run_attrs, &out.peaks_unreadable);
  using Key = std::tuple<std::string, std::string, std::string, int>;
  std::map<Key, RooflineRow> groups;
  std::set<std::string> not_counted;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> settings;
  for (const RunRecord& r : rows) {
    if (r.iterations <= 0 || !(r.solve_time_s > 0)) continue;
    if (!std::isfinite(r.work_bytes) || !std::isfinite(r.work_flops) || r.work_bytes <= 0) {
      not_counted.insert(r.solver);
      continue;
    }
    const int threads = std::max(1, r.threads_used);
    RooflineRow& g = groups[{r.dataset, r.solver, r.settings, threads}];
    settings[{r.dataset, r.solver}].insert(r.settings);
    g.dataset = r.dataset, g.solver = r.solver, g.threads = threads;
    ++g.runs;
    g.iterations += r.iterations;
    g.bytes += r.work_bytes, g.flops += r.work_flops, g.time_s += r.solve_time_s;
    if (out.peaks) {
      const double t = std::max(r.work_bytes / (out.peaks->Bandwidth(threads) * 1e9),
                                r.work_flops / (out.peaks->Flops(threads) * 1e9));
      g.bound_time_s = (std::isnan(g.bound_time_s) ? 0.0 : g.bound_time_s) + t;
    }
  }
  for (auto& [key, g] : groups) {
    const std::set<std::string>& variants = settings[{g.dataset, g.solver}];
    if (variants.size() > 1) {
      const auto pos = std::distance(variants.begin(), variants.find(std::get<2>(key)));
      g.solver += fmt::format(" #{}", pos + 1);
    }
    out.rows.push_back(g);
  }
  out.not_counted.assign(not_counted.begin(), not_counted.end());
  return out;
}

std::string RooflineMarkdown(const Roofline& r) {
  if (r.rows.empty() && r.not_counted.empty()) return "";
  std::string out = markdown::Heading(2, "Machine limit (roofline)");
  if (r.peaks) {
    const MachinePeaks& p = *r.peaks;
    out += fmt::format(
        "Bounds measured on this machine ({}, `ncpbench peaks`): memory bandwidth {:.3g} GB/s on "
        "one thread and {:.3g} GB/s on {} (STREAM triad), dense flop rate {:.3g} and {:.3g} "
        "GFLOP/s. ",
        p.measured, p.bandwidth_gbs_1, p.bandwidth_gbs, p.threads, p.gflops_1, p.gflops);
  } else if (!r.peaks_unreadable.empty()) {
    out += fmt::format(
        "Fractions of the bound: not assessed — this results file's measured peaks are "
        "unreadable ({}). ",
        r.peaks_unreadable);
  } else {
    out +=
        "Fractions of the bound: not assessed — this results file records no measured peaks "
        "(run `ncpbench peaks` once on the machine, then the runs). ";
  }
  out +=
      "Bytes and flops are what the iterations had to move, counted by each solver from the "
      "problem's structure (docs/roofline.md): a lower bound of the traffic, so the rates and "
      "fractions are conservative. *of bound* = time at the roofline bound / measured iteration "
      "time (1 = at the machine's limit; above 1 the data stayed in the caches, which the "
      "memory bound does not credit: problems smaller than the last-level cache); *bound* says "
      "which limit applies at the solver's arithmetic intensity. Settings variants are numbered "
      "#k.\n\n";
  markdown::Table t({"dataset", "solver", "threads", "runs", "µs/iter", "MB/iter", "MFLOP/iter",
                     "flop/B", "GB/s", "GFLOP/s", "bound", "of bound"},
                    "llrrrrrrrrlr");
  for (const RooflineRow& g : r.rows) {
    const bool have = r.peaks.has_value() && std::isfinite(g.bound_time_s);
    t.Row({g.dataset, g.solver, std::to_string(g.threads), std::to_string(g.runs),
           fmt::format("{:.3g}", g.time_s / g.iterations * 1e6),
           fmt::format("{:.3g}", g.bytes / g.iterations * 1e-6),
           fmt::format("{:.3g}", g.flops / g.iterations * 1e-6),
           fmt::format("{:.2g}", g.Intensity()), fmt::format("{:.3g}", g.GBs()),
           fmt::format("{:.3g}", g.GFlops()),
           have ? (g.MemoryBound(*r.peaks) ? "memory" : "flops") : "n/a",
           have ? fmt::format("{:.0f}%", 100.0 * g.Fraction()) : "not assessed"});
  }
  if (!t.empty()) out += t.str();
  if (!r.not_counted.empty())
    out += fmt::format(
        "\nNot counted (no work model: peers run by their own libraries, or a "
        "solver without one yet): {}.\n",
        fmt::join(r.not_counted, ", "));
  return out + "\n";
}

}  // namespace ncp
