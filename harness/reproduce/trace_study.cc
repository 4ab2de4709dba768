#include "harness/reproduce/trace_study.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "harness/markdown.h"
#include "harness/metrics/evaluator.h"
#include "harness/reproduce/budget_cap.h"
#include "harness/reproduce/plot_script.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/thread_limits.h"
#include "harness/runner.h"
#include "common/file_write.h"
#include "solvers/registry.h"
#include "solvers/settings.h"

namespace ncp {

double Median(std::vector<double> v) {
  if (v.empty()) return INFINITY;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

namespace {
namespace trace_study {

std::string TolKey(const char* what, int t) {
  return fmt::format("{}_{:.0e}", what, TraceStudy::kTols[t]);
}

}  // namespace trace_study
}  // namespace

void ThinTrace(RunRecord& r) {
  std::vector<TracePoint> kept;
  for (std::size_t i = 0; i < r.trace.size(); ++i)
    if (const TracePoint& tp = r.trace[i];
        tp.iteration <= 100 || tp.iteration % 10 == 0 || i + 1 == r.trace.size())
      kept.push_back(tp);
  r.trace = std::move(kept);
}

RunOptions StudyRunOptions(const ReproduceOptions& opt, int iters, double time_ms) {
  RunOptions ro;
  ro.budget.iters = iters;
  ro.budget.time_ms = time_ms;
  ro.budget.tol = 1e-10;
  ro.trace_every = 1;
  ro.threads = 1;
  CapBudget(opt, ro.budget);
  return ro;
}

std::string StudyLabel(const std::string& solver, const std::string& settings) {
  const auto it = std::find_if(Solvers().begin(), Solvers().end(),
                               [&](const SolverEntry& e) { return e.name == solver; });
  if (it == Solvers().end()) return solver;
  const auto given = ParseKeyValues(settings);
  const auto defaults = ParseKeyValues(Settings::Parse(it->name, it->settings, {}).ToString());
  std::string differ;
  for (const auto& [k, v] : given)
    if (const auto d = defaults.find(k); d == defaults.end() || d->second != v)
      differ += fmt::format("{}{}={}", differ.empty() ? "" : ", ", k, v);
  return differ.empty() ? solver : fmt::format("{} ({})", solver, differ);
}

void MeasureTraceStudy(const std::string& id, const std::vector<ContactProblem>& problems,
                       const std::vector<StudySolver>& solvers, const ReproduceOptions& opt,
                       int iters, double time_ms, const std::string& part) {
  using namespace trace_study;
  const RunOptions ro = StudyRunOptions(opt, iters, time_ms);
  if (opt.records) {
    opt.records->Observe(part, "cases", static_cast<double>(problems.size()));
    for (std::size_t c = 0; c < problems.size(); ++c) {
      opt.records->Observe(part, fmt::format("rows_{}", c), problems[c].num_rows());
      opt.records->Observe(part, fmt::format("contacts_{}", c), problems[c].num_contacts());
      opt.records->Observe(part, fmt::format("dofs_{}", c), problems[c].num_dofs());
    }
  }
  const SolverThreadScope threads(1);
  for (const StudySolver& solver : solvers) {
    const std::string& name = solver.name;
    const SolverEntry& e = FindSolver(name);
    const SolverJob job{&e, Settings::Parse(name, e.settings, solver.settings)};
    for (std::size_t c = 0; c < problems.size(); ++c) {
      RunRecord r = RunOne(problems[c], Evaluator(problems[c]), job, ro, nullptr, 0);
      // What the study reads off the whole trace, before it is thinned.
      double best = INFINITY;
      for (const TracePoint& tp : r.trace) best = std::min(best, tp.metrics[Metric::kRes004]);
      ObserveRun(r, "best_res004", best);
      for (int t = 0; t < 3; ++t)
        for (const TracePoint& tp : r.trace)
          if (tp.metrics[Metric::kRes004] <= TraceStudy::kTols[t]) {
            ObserveRun(r, TolKey("reach_s", t), tp.time_s);
            ObserveRun(r, TolKey("reach_iter", t), tp.iteration);
            break;
          }
      ThinTrace(r);
      Record(opt, std::move(r), part,
             problems[c].meta.name.empty() ? fmt::format("case{}", c) : "");
    }
    if (!opt.quiet) std::fprintf(stderr, "%s: %s done\n", id.c_str(), name.c_str());
  }
}

TraceStudy ReportTraceStudy(const ProtocolRecords& records, const std::string& out_dir) {
  using namespace trace_study;
  TraceStudy s;
  s.cases = static_cast<int>(records.Value("cases", "cases"));
  const std::vector<const RunRecord*> runs = records.Part("cases");
  for (const RunRecord* r : runs) {
    const std::string name = StudyLabel(r->solver, r->settings);
    if (std::find(s.solvers.begin(), s.solvers.end(), name) == s.solvers.end())
      s.solvers.push_back(name);
    if (r->iterations > 0) s.per_iter[name].push_back(r->solve_time_s / r->iterations);
    s.best_res[name].push_back(RunObservation(*r, "best_res004", INFINITY));
    s.setup[name].push_back(r->setup_time_s);
    double at[3];
    for (int t = 0; t < 3; ++t) {
      at[t] = RunObservation(*r, TolKey("reach_iter", t), -1);
      if (at[t] < 0) continue;
      s.reach[name][t].push_back(RunObservation(*r, TolKey("reach_s", t)));
      if (t == 2) s.iters_to_1e8[name].push_back(at[t]);
    }
    if (at[0] >= 0 && at[2] >= 0) s.sweeps_4_to_8[name].push_back(at[2] - at[0]);
    auto& points = s.traces[name].emplace_back();
    points.reserve(r->trace.size());
    for (const TracePoint& tp : r->trace)
      points.emplace_back(tp.time_s, tp.metrics[Metric::kRes004]);
  }
  // The figure's data: one line per stored trace point.
  std::filesystem::create_directories(out_dir);
  s.csv = out_dir + "/" + records.id() + "-traces.csv";
  {
    std::ostringstream traces;
    traces << "solver,case,iteration,time_s,res004\n";
    std::map<std::string, int> next_case;
    for (const RunRecord* r : runs) {
      const std::string label = StudyLabel(r->solver, r->settings);
      const int c = next_case[label]++;
      const std::string field = label.find(',') == std::string::npos ? label : '"' + label + '"';
      for (const TracePoint& tp : r->trace)
        traces << fmt::format("{},{},{},{:.9g},{:.6g}\n", field, c, tp.iteration, tp.time_s,
                              tp.metrics[Metric::kRes004]);
    }
    WriteFileAtomically(s.csv, traces.str());
  }
  s.png = out_dir + "/" + records.id() + ".png";
  s.has_traces = !runs.empty() && !runs.front()->trace.empty();
  s.drawn = s.has_traces && RunPlotScript("trace_panels.py", {s.csv, "-o", s.png}).has_value();
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
  markdown::Table table({"solver", "≤ 1e-4 [ms]", "≤ 1e-6 [ms]", "≤ 1e-8 [ms]",
                         "iterations to 1e-8", "time per iteration [µs]", "best res004 (median)"},
                        "lrrrrrr");
  for (const std::string& name : s.solvers) {
    std::vector<std::string> row = {name};
    const auto reach = s.reach.find(name);
    for (int t = 0; t < 3; ++t) {
      const std::vector<double> none;
      const auto& v = reach == s.reach.end() ? none : reach->second[t];
      row.push_back(v.empty() ? fmt::format("— (0/{})", s.cases)
                              : fmt::format("{:.3g} ({}/{})", 1e3 * Median(v), v.size(), s.cases));
    }
    const auto it = s.iters_to_1e8.find(name);
    row.push_back(it == s.iters_to_1e8.end() ? "—" : fmt::format("{:.0f}", Median(it->second)));
    const auto pi = s.per_iter.find(name);
    row.push_back(pi == s.per_iter.end() ? "—" : fmt::format("{:.3g}", 1e6 * Median(pi->second)));
    const auto br = s.best_res.find(name);
    row.push_back(br == s.best_res.end() ? "—" : fmt::format("{:.2e}", Median(br->second)));
    table.Row(std::move(row));
  }
  return table.str();
}

std::string TraceFigureNote(const TraceStudy& s) {
  if (!s.has_traces) return "\nNo figure: the results file holds no traces (--no-traces).\n";
  return s.drawn ? fmt::format(
                       "\nFigure: `{}` (left: median res004 over time; right: time over "
                       "iterations). Traces: `{}`.\n",
                       s.png, s.csv)
                 : fmt::format(
                       "\nTraces: `{}` (the figure needs /usr/bin/python3 with matplotlib: "
                       "plots/trace_panels.py).\n",
                       s.csv);
}

}  // namespace ncp
