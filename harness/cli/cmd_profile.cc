#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/cli/split.h"
#include "harness/profile.h"
#include "harness/results_store.h"
#include "harness/runner.h"
#include "solvers/registry.h"

namespace ncp::cli {
namespace {

void WriteText(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw Error(fmt::format("{}: cannot write", path));
    f << text;
    f.close();
    if (!f) throw Error(fmt::format("{}: write failed (disk full?)", tmp));
  }
  std::filesystem::rename(tmp, path);
}

std::string DefaultSolvers() {
  std::string list = "pgs,apgd,admm-full,canal";
  for (const char* peer : {"siconos:nsgs", "siconos:nsn-ac", "siconos:prox"})
    for (const SolverEntry& e : Solvers())
      if (e.name == peer) list += std::string(",") + peer;
  return list;
}

}  // namespace

void AddProfile(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "profile", "performance profiles and shifted geometric means of the time to a tolerance");
  struct Opts {
    std::vector<std::string> datasets, sets;
    std::string solvers, out = "results/runs/profile.h5", report, csv, from;
    int iters = 2000;
    double time_ms = 0, tol = 1e-6;
    bool quiet = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("datasets", o->datasets, "ncpbench datasets or fclib files");
  cmd->add_option("-s,--solvers", o->solvers,
                  "comma-separated solver names (default: pgs, apgd, admm-full, canal and, when "
                  "built with Siconos, siconos:nsgs, siconos:nsn-ac, siconos:prox)");
  cmd->add_option("--set", o->sets, "solver setting, e.g. --set siconos:nsgs.chunk=5 (repeatable)");
  cmd->add_option("--tol", o->tol, "res004 tolerance the time is measured to")->capture_default_str();
  cmd->add_option("--iters", o->iters, "iteration budget per problem")->capture_default_str();
  cmd->add_option("--time-ms", o->time_ms, "time budget per problem in ms (0: none)");
  cmd->add_option("-o,--out", o->out, "results file (.h5), resumable")->capture_default_str();
  cmd->add_option("--from", o->from, "profile an existing results file (run with --trace 1) instead");
  cmd->add_option("--report", o->report, "Markdown report (stdout when absent)");
  cmd->add_option("--csv", o->csv, "long CSV for plots/profiles.py (default: results file + .csv)");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress lines");
  cmd->callback([&action, o] {
    action = [o] {
      if (!(o->tol > 0)) throw Error(fmt::format("--tol = {}: must be > 0", o->tol));
      if (o->iters < 1) throw Error(fmt::format("--iters = {}: must be >= 1", o->iters));
      if (!(o->time_ms >= 0)) throw Error(fmt::format("--time-ms = {}: must be >= 0", o->time_ms));
      std::string results = o->from;
      if (results.empty()) {
        if (o->datasets.empty()) throw Error("datasets: none given (or use --from results.h5)");
        RunOptions opt;
        opt.budget.iters = o->iters;
        opt.budget.time_ms = o->time_ms;
        opt.budget.tol = o->tol;
        opt.budget.tol_metric = Metric::kRes004;
        opt.trace_every = 1;  // the time to tolerance is read from the trace
        const auto jobs = MakeSolverJobs(SplitComma(o->solvers.empty() ? DefaultSolvers() : o->solvers), o->sets);
        std::vector<DatasetInput> data;
        for (const std::string& path : o->datasets) data.push_back(LoadValidated(path));
        RunAll(data, jobs, opt, o->out, o->quiet);
        results = o->out;
      } else if (!o->datasets.empty()) {
        throw Error("--from: profiles an existing results file; give no datasets with it");
      }
      const std::vector<RunRecord> rows = ReadResults(results);
      const ProfileResult r = ComputeProfiles(rows, o->tol, o->time_ms * 1e-3);
      const ProfileResult common = ComputeProfiles(RunsOnCommonProblems(rows), o->tol, o->time_ms * 1e-3);
      const std::string csv = o->csv.empty() ? results + ".csv" : o->csv;
      WriteText(csv, ProfileCsv(r));
      const std::string md = ProfileMarkdown(r, &common);
      if (o->report.empty()) {
        std::fputs(md.c_str(), stdout);
      } else {
        WriteText(o->report, md);
        std::printf("report: %s\n", o->report.c_str());
      }
      std::printf("profile data: %s (plot: /usr/bin/python3 plots/profiles.py %s)\n", csv.c_str(),
                  csv.c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
