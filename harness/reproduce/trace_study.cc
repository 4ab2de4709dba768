#include "harness/reproduce/trace_study.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "harness/metrics/evaluator.h"
#include "harness/reproduce/budget_cap.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/reproduce/thread_scope.h"
#include "harness/runner.h"
#include "solvers/settings.h"

namespace ncp {

double Median(std::vector<double> v) {
  if (v.empty()) return INFINITY;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

TraceStudy SummarizeTraceStudy(const std::vector<RunRecord>& runs,
                               const std::vector<std::string>& solvers, int cases) {
  TraceStudy s;
  s.cases = cases;
  s.solvers = solvers;
  for (const RunRecord& r : runs) {
    const std::string& name = r.solver;
    if (r.iterations > 0) s.per_iter[name].push_back(r.solve_time_s / r.iterations);
    double best = INFINITY;
    for (const TracePoint& tp : r.trace) best = std::min(best, tp.metrics[Metric::kRes004]);
    s.best_res[name].push_back(best);
    s.setup[name].push_back(r.setup_time_s);
    int at[3] = {-1, -1, -1};
    for (int t = 0; t < 3; ++t)
      for (const TracePoint& tp : r.trace)
        if (tp.metrics[Metric::kRes004] <= TraceStudy::kTols[t]) {
          s.reach[name][t].push_back(tp.time_s);
          at[t] = tp.iteration;
          if (t == 2) s.iters_to_1e8[name].push_back(tp.iteration);
          break;
        }
    if (at[0] >= 0 && at[2] >= 0) s.sweeps_4_to_8[name].push_back(at[2] - at[0]);
    auto& points = s.traces[name].emplace_back();
    points.reserve(r.trace.size());
    for (const TracePoint& tp : r.trace) points.emplace_back(tp.time_s, tp.metrics[Metric::kRes004]);
  }
  return s;
}

TraceStudy RunTraceStudy(const std::string& id, const std::vector<ContactProblem>& problems,
                         const std::vector<std::string>& solvers, const ReproduceOptions& opt,
                         int iters, double time_ms) {
  RunOptions ro;
  ro.budget.iters = iters;
  ro.budget.time_ms = time_ms;
  ro.budget.tol = 1e-10;
  ro.trace_every = 1;
  ro.threads = 1;
  CapBudget(opt, ro.budget);
  std::vector<RunRecord> runs;  // solver-major, as the summary and the CSV list them
  {
    const SolverThreadScope threads(1);
    for (const std::string& name : solvers) {
      const SolverEntry& e = FindSolver(name);
      const SolverJob job{&e, Settings::Parse(name, e.settings, {})};
      for (const ContactProblem& p : problems) runs.push_back(RunOne(p, Evaluator(p), job, ro, nullptr, 0));
      if (!opt.quiet) std::fprintf(stderr, "%s: %s done\n", id.c_str(), name.c_str());
    }
  }
  TraceStudy s = SummarizeTraceStudy(runs, solvers, static_cast<int>(problems.size()));
  std::filesystem::create_directories(opt.out_dir);
  s.csv = opt.out_dir + "/" + id + "-traces.csv";
  std::ofstream traces(s.csv + ".tmp");
  traces << "solver,case,iteration,time_s,res004\n";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    RunRecord& r = runs[k];
    const std::size_t c = k % problems.size();
    // The CSV and the results file keep every iteration up to 100, then every 10th and the
    // last: the CSV only draws the figure (thousands of first-order iterations × a hundred
    // cases would be tens of MB).
    std::vector<TracePoint> kept;
    for (std::size_t i = 0; i < r.trace.size(); ++i)
      if (const TracePoint& tp = r.trace[i];
          tp.iteration <= 100 || tp.iteration % 10 == 0 || i + 1 == r.trace.size())
        kept.push_back(tp);
    for (const TracePoint& tp : kept)
      traces << fmt::format("{},{},{},{:.9g},{:.6g}\n", r.solver, c, tp.iteration, tp.time_s,
                            tp.metrics[Metric::kRes004]);
    r.trace = std::move(kept);
    Record(opt, std::move(r), "cases",
           problems[c].meta.name.empty() ? fmt::format("case{}", c) : "");
  }
  traces.close();
  std::filesystem::rename(s.csv + ".tmp", s.csv);
  s.png = opt.out_dir + "/" + id + ".png";
  const std::string draw = fmt::format("/usr/bin/python3 {}/plots/trace_panels.py {} -o {} > /dev/null",
                                       NCPBENCH_SOURCE_DIR, s.csv, s.png);
  s.drawn = std::system(draw.c_str()) == 0;
  return s;
}

std::vector<double> BestByTime(const TraceStudy& s, const std::string& solver, double time_s) {
  std::vector<double> best;
  const auto it = s.traces.find(solver);
  if (it == s.traces.end()) return best;
  for (const auto& points : it->second) {
    double b = INFINITY;
    for (const auto& [t, res] : points)
      if (t <= time_s) b = std::min(b, res);
    best.push_back(b);
  }
  return best;
}

std::string TraceTable(const TraceStudy& s) {
  std::string md =
      "| solver | ≤ 1e-4 [ms] | ≤ 1e-6 [ms] | ≤ 1e-8 [ms] | iterations to 1e-8 | time per "
      "iteration [µs] | best res004 (median) |\n|---|---:|---:|---:|---:|---:|---:|\n";
  for (const std::string& name : s.solvers) {
    md += fmt::format("| {} |", name);
    const auto reach = s.reach.find(name);
    for (int t = 0; t < 3; ++t) {
      const std::vector<double> none;
      const auto& v = reach == s.reach.end() ? none : reach->second[t];
      md += v.empty() ? fmt::format(" — (0/{}) |", s.cases)
                      : fmt::format(" {:.3g} ({}/{}) |", 1e3 * Median(v), v.size(), s.cases);
    }
    const auto it = s.iters_to_1e8.find(name);
    md += it == s.iters_to_1e8.end() ? " — |" : fmt::format(" {:.0f} |", Median(it->second));
    const auto pi = s.per_iter.find(name);
    md += pi == s.per_iter.end() ? " — |" : fmt::format(" {:.3g} |", 1e6 * Median(pi->second));
    const auto br = s.best_res.find(name);
    md += br == s.best_res.end() ? " — |\n" : fmt::format(" {:.2e} |\n", Median(br->second));
  }
  return md;
}

std::string TraceFigureNote(const TraceStudy& s) {
  return s.drawn ? fmt::format("\nFigure: `{}` (left: median res004 over time; right: time over "
                               "iterations). Traces: `{}`.\n", s.png, s.csv)
                 : fmt::format("\nTraces: `{}` (the figure needs /usr/bin/python3 with matplotlib: "
                               "plots/trace_panels.py).\n", s.csv);
}

}  // namespace ncp
