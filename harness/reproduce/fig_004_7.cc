// 004 Fig. 7: the bolt-nut single-step cases (10 placements × 10 random wrenches in the paper),
// residual against time and time against iteration for every applicable solver, and a table of
// the median time to reach res004 1e-4, 1e-6 and 1e-8. The figure is drawn by
// plots/trace_panels.py from the traces this protocol writes as CSV.
#include <fmt/format.h>

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "harness/metrics/evaluator.h"
#include "harness/reproduce/protocol.h"
#include "harness/runner.h"
#include "harness/thread_limits.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

const char* kSolvers[] = {"canal", "subadmm", "pgs", "admm-full", "apgd", "nnewton"};
const double kTols[] = {1e-4, 1e-6, 1e-8};

double Median(std::vector<double> v) {
  if (v.empty()) return INFINITY;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string Run(const ReproduceOptions& opt) {
  const int cases = opt.cases > 0 ? opt.cases : 20;
  const int placements = std::min(10, cases);
  const int wrenches = (cases + placements - 1) / placements;
  const std::vector<ContactProblem> problems = FindScenario("bolt_nut").generate(
      {{"configurations", std::to_string(placements)}, {"wrenches", std::to_string(wrenches)}},
      cases, 1);
  RunOptions ro;
  ro.budget.iters = 500;
  ro.budget.time_ms = 500;
  ro.trace_every = 1;
  ro.threads = 1;
  SetSolverThreads(1);
  std::filesystem::create_directories(opt.out_dir);
  const std::string csv = opt.out_dir + "/004-fig7-traces.csv";
  std::ofstream traces(csv + ".tmp");
  traces << "solver,case,iteration,time_s,res004\n";
  std::map<std::string, std::array<std::vector<double>, 3>> reach;  // times to each tolerance
  std::map<std::string, std::vector<double>> per_iter, iters_to_1e8;
  for (const char* name : kSolvers) {
    const SolverEntry& e = FindSolver(name);
    const SolverJob job{&e, Settings::Parse(name, e.settings, {})};
    for (std::size_t c = 0; c < problems.size(); ++c) {
      const ContactProblem& p = problems[c];
      const RunRecord r = RunOne(p, Evaluator(p), job, ro, nullptr, 0);
      if (r.iterations > 0) per_iter[name].push_back(r.solve_time_s / r.iterations);
      for (int t = 0; t < 3; ++t)
        for (const TracePoint& tp : r.trace)
          if (tp.metrics[Metric::kRes004] <= kTols[t]) {
            reach[name][t].push_back(tp.time_s);
            if (t == 2) iters_to_1e8[name].push_back(tp.iteration);
            break;
          }
      for (const TracePoint& tp : r.trace)
        traces << fmt::format("{},{},{},{:.9g},{:.6g}\n", name, c, tp.iteration, tp.time_s,
                              tp.metrics[Metric::kRes004]);
    }
    if (!opt.quiet) std::fprintf(stderr, "004-fig7: %s done\n", name);
  }
  traces.close();
  std::filesystem::rename(csv + ".tmp", csv);
  SetSolverThreads(omp_get_num_procs());
  const std::string png = opt.out_dir + "/004-fig7.png";
  const std::string draw = fmt::format("/usr/bin/python3 {}/plots/trace_panels.py {} -o {} > /dev/null",
                                       NCPBENCH_SOURCE_DIR, csv, png);
  const bool drawn = std::system(draw.c_str()) == 0;

  const int n = static_cast<int>(problems.size());
  std::string md = fmt::format(
      "# 004 Fig. 7 — bolt-nut single-step cases\n\n"
      "{} cases of `bolt_nut` ({} placements × {} random wrenches; the paper used 10 × 10), "
      "{}–{} contacts each after k-means, 6 dofs. Every solver with its defaults, single "
      "thread, at most 500 iterations or 500 ms, res004 evaluated after every iteration (not "
      "timed). Median time to reach each tolerance over the cases that reached it, with how many "
      "did; time per iteration is the median over cases.\n\n"
      "| solver | ≤ 1e-4 [ms] | ≤ 1e-6 [ms] | ≤ 1e-8 [ms] | iterations to 1e-8 | time per iteration [µs] |\n"
      "|---|---:|---:|---:|---:|---:|\n",
      n, placements, wrenches, problems.front().num_contacts(), problems.back().num_contacts());
  for (const char* s : kSolvers) {
    md += fmt::format("| {} |", s);
    for (int t = 0; t < 3; ++t) {
      const auto& v = reach[s][t];
      md += v.empty() ? " — (0/" + std::to_string(n) + ") |"
                      : fmt::format(" {:.3g} ({}/{}) |", 1e3 * Median(v), v.size(), n);
    }
    md += iters_to_1e8[s].empty() ? " — |" : fmt::format(" {:.0f} |", Median(iters_to_1e8[s]));
    md += fmt::format(" {:.3g} |\n", 1e6 * Median(per_iter[s]));
  }
  md += "\nPaper (qualitative): CANAL and SubADMM reach 1e-8 or less while PGS struggles past "
        "1e-4; CANAL converges superlinearly in about 10 iterations; SubADMM reaches moderate "
        "accuracy fastest and has the cheapest iterations; CANAL's time per iteration falls as "
        "its warm-started Newton loops shorten.\n";
  md += drawn ? fmt::format("\nFigure: `{}` (left: median res004 over time; right: time over "
                            "iterations). Traces: `{}`.\n", png, csv)
              : fmt::format("\nTraces: `{}` (the figure needs /usr/bin/python3 with matplotlib: "
                            "plots/trace_panels.py).\n", csv);
  return md;
}

}  // namespace

Protocol MakeFig004_7() {
  return {"004-fig7", "bolt-nut: residual vs time, time vs iteration, time to 1e-4/1e-6/1e-8",
          "bolt_nut single-step cases (paper: 10 placements × 10 wrenches = 100; default here 20, "
          "--cases 100 for the paper's count); canal, subadmm, pgs, admm-full, apgd, nnewton",
          "", Run};
}

}  // namespace ncp
