#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/parse_number.h"
#include "harness/cli/commands.h"
#include "harness/cli/plugin_option.h"
#include "harness/cli/split.h"
#include "harness/distribute/cluster.h"
#include "harness/inputs.h"
#include "harness/output_path.h"
#include "harness/profile.h"
#include "harness/report.h"
#include "harness/roofline.h"
#include "harness/results_store.h"
#include "harness/run_options.h"
#include "harness/runner.h"
#include "common/file_write.h"
#include "solvers/registry.h"

namespace ncp::cli {
namespace {

std::string DefaultSolvers() {
  std::string list = "pgs,apgd,admm-full,canal";
  for (const char* peer : {"siconos:nsgs", "siconos:nsn-ac", "siconos:prox"})
    for (const SolverEntry& e : Solvers())
      if (e.name == peer) list += std::string(",") + peer;
  return list;
}

// Tolerances from --tol or --tols, each > 0, in the order given.
std::vector<double> ParseTols(const std::string& list, double tol, bool tol_given) {
  if (list.empty()) {
    if (!(tol > 0 && std::isfinite(tol))) throw Error(fmt::format("--tol = {}: must be > 0", tol));
    return {tol};
  }
  if (tol_given) throw Error(fmt::format("--tols = {}: give --tol or --tols, not both", list));
  std::vector<double> tols;
  for (const std::string& item : SplitComma(list, "--tols")) {
    double x = 0.0;
    if (!ParseDecimal(item, &x) || !(x > 0 && std::isfinite(x)))
      throw Error(fmt::format("--tols = {}: '{}' must be a number > 0", list, item));
    tols.push_back(x);
  }
  if (tols.empty()) throw Error("--tols: empty list");
  for (std::size_t i = 1; i < tols.size(); ++i)
    if (std::count(tols.begin(), tols.begin() + i, tols[i]))
      throw Error(fmt::format("--tols = {}: {:g} is given twice", list, tols[i]));
  return tols;
}

// "path: reason", naming the path once even when the reason already starts with it.
std::string SkippedLine(const SkippedInput& s) {
  return s.reason.rfind(s.path, 0) == 0 ? s.reason : s.path + ": " + s.reason;
}

// The time to each tolerance comes from the traces: a results file without them (a run without
// --trace) would score every solver 0 solved; one traced every k > 1 iterations rounds the times
// up to the next traced point (said, not refused).
// Returns the largest step between traced iterations (1: every iteration traced).
int CheckTraces(const std::string& results, const std::vector<RunRecord>& rows) {
  int every = 1;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RunRecord& r = rows[i];
    if (!RanToEnd(r.status) && r.status != Outcome::kDiverged) continue;
    if (r.trace.empty())
      throw Error(
          fmt::format("--from {}: row {} ({} on {}) has no trace: the profiles need the "
                      "time to each tolerance; rerun with --trace 1",
                      results, i, r.solver, r.problem));
    for (std::size_t k = 1; k < r.trace.size(); ++k)
      every = std::max(every, r.trace[k].iteration - r.trace[k - 1].iteration);
  }
  if (every > 1)
    std::fprintf(stderr,
                 "warning: --from %s: traced every %d iterations: the time to a tolerance is that "
                 "of the first traced point below it (--trace 1 gives it exactly)\n",
                 results.c_str(), every);
  return every;
}

// The sample and budget behind the profiles of an earlier run, for the report's header: the
// problems, the repeats, the budgets the rows ran under, and how finely they were traced.
std::string SampleOf(const std::vector<RunRecord>& rows, int traced_every) {
  std::set<std::pair<std::string, std::string>> problems;
  std::set<std::string> datasets, budgets;
  int repeats = 0;
  for (const RunRecord& r : rows) {
    problems.emplace(r.dataset, r.problem);
    datasets.insert(r.dataset);
    budgets.insert(r.budget);
    repeats = std::max(repeats, r.repeat + 1);
  }
  return fmt::format(
      " Sample: {} problems from {} dataset{} × {} repeat{} (times: the minimum over repeats); "
      "budget: {}; traced every {}.",
      problems.size(), datasets.size(), datasets.size() == 1 ? "" : "s", repeats,
      repeats == 1 ? "" : "s", fmt::join(budgets, " | "),
      traced_every == 1 ? std::string("iteration")
                        : fmt::format("{} iterations (a tolerance's time is the first traced "
                                      "point below it)",
                                      traced_every));
}

// The outputs (results, CSV, report) against the inputs and one another, before any work: a
// report written over its own results file or over a dataset would destroy it.
void CheckOutputs(const std::vector<std::string>& datasets, const std::string& from,
                  const std::string& out, const std::string& csv, const std::string& report) {
  std::vector<std::string> taken =
      from.empty() ? ExpandInputPaths(datasets, out) : std::vector<std::string>{from};
  if (from.empty()) CheckOutputNotAnInput("--out", out, taken);
  const std::string results = from.empty() ? out : from;
  const std::string csv_path = csv.empty() ? results + ".csv" : csv;
  taken.push_back(results);
  CheckOutputNotAnInput("--csv", csv_path, taken);
  if (SamePath(csv_path, results))
    throw Error(
        fmt::format("--csv = '{}': is also the results file; each output needs a path of "
                    "its own",
                    csv_path));
  if (report.empty()) return;
  CheckOutputNotAnInput("--report", report, taken);
  if (SamePath(report, csv_path) || SamePath(report, results))
    throw Error(
        fmt::format("--report = '{}': is also the {} ('{}'); each output needs a path of its own",
                    report, SamePath(report, results) ? "results file" : "CSV",
                    SamePath(report, results) ? results : csv_path));
}

}  // namespace

void AddProfile(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "profile", "performance profiles and shifted geometric means of the time to a tolerance");
  struct Opts {
    std::vector<std::string> datasets, sets;
    std::string solvers, out = "results/runs/profile.h5", report, csv, from, tols;
    std::string tol_metric = "res004";
    int iters = 2000;
    double time_ms = 0, tol = 1e-6;
    bool quiet = false, skip_invalid = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("datasets", o->datasets,
                  "ncpbench datasets, fclib files, or folders of them (*.h5, *.hdf5)");
  CLI::Option* solvers_opt = cmd->add_option(
      "-s,--solvers", o->solvers,
      "comma-separated solver names (default: pgs, apgd, admm-full, canal and, when "
      "built with Siconos, siconos:nsgs, siconos:nsn-ac, siconos:prox)");
  CLI::Option* set_opt = cmd->add_option(
      "--set", o->sets, "solver setting, e.g. --set siconos:nsgs.chunk=5 (repeatable)");
  CLI::Option* tol_opt =
      cmd->add_option("--tol", o->tol, "tolerance the time is measured to")->capture_default_str();
  cmd->add_option("--tols", o->tols,
                  "several tolerances, e.g. 1e-8,1e-4: the run stops at the smallest and the "
                  "trace gives the time to each (instead of --tol)");
  cmd->add_option("--tol-metric", o->tol_metric,
                  "metric of the tolerance: res004, natmap_rel (Acary et al. 2018), ...")
      ->capture_default_str();
  CLI::Option* iters_opt =
      cmd->add_option("--iters", o->iters, "iteration budget per problem")->capture_default_str();
  cmd->add_option("--time-ms", o->time_ms,
                  "time budget per problem in ms (0: none); a tolerance reached later counts as "
                  "not reached");
  CLI::Option* out_opt =
      cmd->add_option("-o,--out", o->out, "results file (.h5), resumable")->capture_default_str();
  cmd->add_option("--from", o->from,
                  "profile an existing results file (run with --trace 1) instead");
  CLI::Option* report_opt =
      cmd->add_option("--report", o->report, "Markdown report (stdout when absent)");
  CLI::Option* csv_opt = cmd->add_option(
      "--csv", o->csv, "long CSV for plots/profiles.py (default: results file + .csv)");
  cmd->add_flag("--skip-invalid", o->skip_invalid,
                "leave out invalid input files (listed in the report) instead of stopping");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress lines");
  const auto plugins = AddPluginOption(cmd);
  cmd->callback([&action, o, tol_opt, plugins, solvers_opt, set_opt, iters_opt, out_opt, report_opt,
                 csv_opt] {
    const bool tol_given = tol_opt->count() > 0;
    // Given empty, they named nothing (not the defaults an absent option stands for); given
    // with --from, which measures nothing, they would be ignored without a word.
    std::vector<std::string> measuring;
    for (const CLI::Option* opt : {solvers_opt, set_opt, iters_opt, out_opt})
      if (opt->count() > 0) measuring.push_back(opt->get_name());
    const bool solvers_given = solvers_opt->count() > 0, report_given = report_opt->count() > 0,
               csv_given = csv_opt->count() > 0;
    action = [o, tol_given, plugins, measuring, solvers_given, report_given, csv_given] {
      if (!o->from.empty() && !measuring.empty())
        throw Error(
            fmt::format("--from: profiles an existing results file, which measures "
                        "nothing: {} would be ignored; leave {} out",
                        fmt::join(measuring, ", "), measuring.size() == 1 ? "it" : "them"));
      if (solvers_given && o->solvers.empty())
        throw Error("--solvers = '': must name solvers (left out: the default set)");
      if (report_given) CheckOutputNamed("--report", o->report);
      if (csv_given) CheckOutputNamed("--csv", o->csv);
      LoadPlugins(*plugins);  // before the names resolve
      const std::vector<double> tols = ParseTols(o->tols, o->tol, tol_given);
      Metric metric = Metric::kRes004;
      try {
        metric = MetricFromName(o->tol_metric.c_str());
      } catch (const Error& e) {
        throw Error(fmt::format("--tol-metric = {}: {}", o->tol_metric, e.what()));
      }
      // The budget, checked as `run` checks its options; the trace gives the time to every
      // looser tolerance on the way to the tightest.
      RunOptions opt =
          MakeRunOptions({o->iters, o->time_ms, *std::min_element(tols.begin(), tols.end()),
                          o->tol_metric, 1, 0, /*trace=*/1, "none"});
      CheckOutputs(o->datasets, o->from, o->out, o->csv, o->report);
      std::string results = o->from;
      std::vector<std::string> skipped;
      std::string intro;
      if (results.empty()) {
        if (o->datasets.empty()) throw Error("datasets: none given (or use --from results.h5)");
        const double tightest = opt.budget.tol;
        const std::string names = o->solvers.empty() ? DefaultSolvers() : o->solvers;
        const auto jobs = MakeSolverJobs(SplitComma(names, "--solvers"), o->sets);
        // -q hides the progress lines, not the warnings about the inputs.
        const LoadedInputs in = LoadInputs(o->datasets, o->skip_invalid, /*quiet=*/false, o->out);
        for (const SkippedInput& s : in.skipped) {
          skipped.push_back(SkippedLine(s));
          std::fprintf(stderr, "skipped: %s\n", skipped.back().c_str());
        }
        opt.run_attrs["skipped_inputs"] = SkippedAttr(in.skipped);
        std::size_t problems = 0;
        for (const DatasetInput& d : in.data) problems += d.problems.size();
        intro = fmt::format(
            "{} problems from {} files; solvers {}; per problem {} iterations{}, stopping at {} ≤ "
            "{:g}; results {}.",
            problems, in.data.size(), names, o->iters,
            o->time_ms > 0 ? fmt::format(" and {:g} ms", o->time_ms) : "", o->tol_metric, tightest,
            o->out);
        if (!o->quiet)
          std::fprintf(stderr, "profile: %zu problems from %zu files x %zu solvers\n", problems,
                       in.data.size(), jobs.size());
        RunAll(in.data, jobs, opt, o->out, o->quiet);
        if (!Cluster::leader()) return 0;  // rank 0 wrote the results and profiles them
        results = o->out;
      } else if (!o->datasets.empty()) {
        throw Error("--from: profiles an existing results file; give no datasets with it");
      } else {
        // Nothing to share among ranks: each would write the same report and CSV.
        if (Cluster::active())
          throw EveryRankError(
              "mpirun: profile --from reads a results file in one process; run it "
              "without mpirun");
        const auto attrs = ReadRunAttrs(results);
        if (const auto it = attrs.find("skipped_inputs"); it != attrs.end()) {
          std::stringstream lines(it->second);
          for (std::string line; std::getline(lines, line);)
            if (!line.empty()) skipped.push_back(line);
        }
        intro = fmt::format("From the results file {}.", results);
      }
      const std::vector<RunRecord> rows = ReadResults(results);
      if (rows.empty()) throw Error(fmt::format("{}: holds no runs: nothing to profile", results));
      double time_ms = o->time_ms;
      if (!o->from.empty()) {
        intro += SampleOf(rows, CheckTraces(results, rows));
        // Runs stopped at a looser --tol on this metric end their traces there: no solver can
        // be seen reaching a tighter one (every solver "0 solved" would be a false verdict).
        const double tightest = *std::min_element(tols.begin(), tols.end());
        // On another metric the two cannot be compared: the stop is stated instead.
        std::set<std::pair<std::string, double>> other_stops;
        for (const RunRecord& r : rows) {
          std::string stop_metric;
          const double stop = StopToleranceOf(r, &stop_metric);
          if (stop_metric == o->tol_metric && stop > tightest)
            throw Error(fmt::format(
                "--tol {:g}: the runs of {} stopped at --tol {:g} on {} (their budget), so their "
                "traces end there; profile at a tolerance of {:g} or looser, or run again",
                tightest, results, stop, stop_metric, stop));
          if (stop_metric != o->tol_metric && std::isfinite(stop))
            other_stops.emplace(stop_metric, stop);
        }
        for (const auto& [m, stop] : other_stops)
          intro += fmt::format(
              " Runs stopped at {} <= {:g} (their budget): one that stopped there before {} "
              "reached a tolerance counts as not reaching it.",
              m, stop, o->tol_metric);
        // The runs' own time budget holds unless --time-ms is given: a tolerance their traces
        // reached past it (the last iteration overruns it) was not reached within the budget.
        // The smallest the rows ran under.
        if (time_ms == 0)
          for (const RunRecord& r : rows)
            if (const double s = TimeBudgetS(r); s > 0)
              time_ms = time_ms == 0 ? 1e3 * s : std::min(time_ms, 1e3 * s);
        if (time_ms > 0)
          intro += fmt::format(" Time budget {:g} ms per problem{}.", time_ms,
                               o->time_ms > 0 ? "" : " (the runs' own, recorded in the file)");
      }
      const std::vector<RunRecord> common_rows = RunsOnCommonProblems(rows);
      std::vector<ProfileResult> per_tol, common;
      for (double tol : tols) {
        per_tol.push_back(ComputeProfiles(rows, tol, time_ms * 1e-3, metric));
        common.push_back(ComputeProfiles(common_rows, tol, time_ms * 1e-3, metric));
      }
      const std::string csv = o->csv.empty() ? results + ".csv" : o->csv;
      WriteFileAtomically(csv, ProfileCsv(per_tol));
      const std::string md = CampaignMarkdown(intro, skipped, per_tol, common) +
                             RooflineMarkdown(ComputeRoofline(rows, ReadRunAttrs(results)));
      if (o->report.empty()) {
        std::fputs(md.c_str(), stdout);
      } else {
        WriteFileAtomically(o->report, md);
        std::printf("report: %s\n", o->report.c_str());
      }
      std::printf("profile data: %s (plot: /usr/bin/python3 plots/profiles.py %s)\n", csv.c_str(),
                  csv.c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
