#include <cstdio>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/cli/plugin_option.h"
#include "harness/cli/split.h"
#include "harness/distribute/cluster.h"
#include "harness/inputs.h"
#include "harness/run_options.h"
#include "harness/runner.h"
#include "harness/output_path.h"

namespace ncp::cli {

void AddRun(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("run", "run solvers on datasets under a budget; results to HDF5");
  struct Opts {
    std::vector<std::string> datasets, sets;
    std::string problems;
    std::string solvers = "pgs,pj,apgd,admm-full", out = "results/runs/results.h5",
                tol_metric = "res004", warm = "none", shard;
    int iters = 1000, repeat = 1, threads = 0, trace = 0;
    double time_ms = 0, tol = 0, step_tol = 0;
    bool quiet = false, skip_invalid = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("datasets", o->datasets,
                  "ncpbench datasets, fclib files, or folders of them (*.h5, *.hdf5)")
      ->required();
  cmd->add_option("--problems", o->problems,
                  "comma-separated problem names: run only these problems of the inputs (names "
                  "as `ncpbench info` lists them)");
  cmd->add_option("-s,--solvers", o->solvers, "comma-separated solver names")
      ->capture_default_str();
  cmd->add_option("--set", o->sets, "solver setting, e.g. --set pgs.omega=1.3 (repeatable)");
  cmd->add_option("-o,--out", o->out, "results file (.h5)")->capture_default_str();
  cmd->add_option("--iters", o->iters, "iteration budget per problem")->capture_default_str();
  cmd->add_option("--time-ms", o->time_ms,
                  "time budget per problem in ms, setup included (0: none)");
  cmd->add_option("--tol", o->tol, "stop when --tol-metric <= tol (0: none)");
  cmd->add_option("--tol-metric", o->tol_metric, "metric for --tol")->capture_default_str();
  cmd->add_option("--step-tol", o->step_tol,
                  "stop when the velocity moved less than this, relative, since the last test: "
                  "002's fixed-point residual (0: none)");
  cmd->add_option("--repeat", o->repeat, "repeats per job (report uses the minimum time)");
  cmd->add_option("--threads", o->threads, "OpenMP threads (0: default)");
  cmd->add_option("--trace", o->trace, "record metrics every K iterations (0: none)");
  cmd->add_option("--warm", o->warm,
                  "warm start: none | reference | previous | guess (fclib /guesses)")
      ->capture_default_str();
  cmd->add_flag("--skip-invalid", o->skip_invalid,
                "run the valid inputs and list the invalid ones (default: refuse them all)");
  CLI::Option* shard_opt = cmd->add_option(
      "--shard", o->shard,
      "run the K-th of N slices of the jobs (K/N), into <out stem>.shard-K-of-N.h5; "
      "combine the slices with `ncpbench merge`");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress lines");
  const auto plugins = AddPluginOption(cmd);
  cmd->callback([&action, o, plugins, shard_opt] {
    const bool shard_given = shard_opt->count() > 0;
    action = [o, plugins, shard_given] {
      // Every input is checked before the results file is touched.
      RunOptions opt = MakeRunOptions({o->iters, o->time_ms, o->tol, o->tol_metric, o->repeat,
                                       o->threads, o->trace, o->warm, o->step_tol});
      if (shard_given) opt.shard = ParseShard(o->shard);
      CheckOutputNamed("--out", o->out);
      const std::string out = opt.shard.OutPath(o->out);
      LoadPlugins(*plugins);  // before the names resolve
      const auto jobs = MakeSolverJobs(SplitComma(o->solvers, "--solvers"), o->sets);
      // -q hides the progress lines, not the warnings about the inputs.
      LoadedInputs in = LoadInputs(o->datasets, o->skip_invalid, /*quiet=*/false, o->out);
      KeepNamedProblems(in.data, SplitComma(o->problems, "--problems"));
      for (const SkippedInput& s : in.skipped)
        std::fprintf(stderr, "skipped: %s\n", s.reason.c_str());
      if (!in.skipped.empty()) opt.run_attrs["skipped_inputs"] = SkippedAttr(in.skipped);
      RunAll(in.data, jobs, opt, out, o->quiet);
      if (!Cluster::leader()) return 0;  // rank 0 wrote the results and speaks for the job
      std::printf("results: %s\n", out.c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
