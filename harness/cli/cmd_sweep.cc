#include <cstdio>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/cli/seed_option.h"
#include "harness/cli/plugin_option.h"
#include "harness/cli/split.h"
#include "harness/distribute/cluster.h"
#include "harness/output_path.h"
#include "harness/run_options.h"
#include "harness/sweep.h"
#include "solvers/settings.h"

namespace ncp::cli {

void AddSweep(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "sweep", "scalability: generate a scene at several sizes and run solvers on each");
  struct Opts {
    SweepOptions s;
    std::string values, params, solvers = "pgs,admm-full", shard;
    std::vector<std::string> sets;
    int iters = 100, repeat = 1, threads = 0;
    double time_ms = 0;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scene", o->s.scene, "scene or scenario (see `ncpbench list scenarios`)")
      ->required();
  cmd->add_option("--param", o->s.param, "size parameter, e.g. cubes, robots, contacts")
      ->required();
  cmd->add_option("--values", o->values, "comma-separated values, e.g. 100,200,400")->required();
  cmd->add_option("-p,--params", o->params, "other scene parameters key=value,key=value");
  cmd->add_option("-n,--count", o->s.count, "problems per size (scenes: recorded frames)")
      ->capture_default_str();
  AddSeedOption(cmd, o->s.seed, "seed of the generator");
  cmd->add_option("-s,--solvers", o->solvers, "comma-separated solver names")
      ->capture_default_str();
  cmd->add_option("--set", o->sets, "solver setting, e.g. --set pgs.omega=1.3 (repeatable)");
  cmd->add_option("--iters", o->iters, "iteration budget per problem")->capture_default_str();
  cmd->add_option("--time-ms", o->time_ms, "time budget per problem in ms (0: none)");
  cmd->add_option("--repeat", o->repeat, "repeats per job (plots use the minimum time)");
  cmd->add_option("--threads", o->threads, "OpenMP threads (0: default)");
  CLI::Option* out_opt =
      cmd->add_option("-o,--out", o->s.out, "results file (default results/sweeps/<scene>.h5)");
  CLI::Option* data_opt =
      cmd->add_option("--data-dir", o->s.data_dir,
                      "folder for the generated datasets (default <out without .h5>.datasets)");
  CLI::Option* shard_opt = cmd->add_option(
      "--shard", o->shard,
      "run the K-th of N slices of the jobs (K/N), into <out stem>.shard-K-of-N.h5; "
      "combine the slices with `ncpbench merge`");
  cmd->add_flag("-q,--quiet", o->s.quiet, "no progress lines");
  const auto plugins = AddPluginOption(cmd);
  cmd->callback([&action, o, plugins, out_opt, data_opt, shard_opt] {
    const bool out_given = out_opt->count() > 0, data_given = data_opt->count() > 0;
    const bool shard_given = shard_opt->count() > 0;
    action = [o, plugins, out_given, data_given, shard_given] {
      // Given empty, they named nothing: not the defaults an absent option stands for.
      if (out_given) CheckOutputNamed("--out", o->s.out);
      if (data_given && o->s.data_dir.empty()) throw Error("--data-dir = '': must name a folder");
      LoadPlugins(*plugins);  // before the names resolve
      // Checked as `run` checks its options (no tolerance, no trace, cold starts).
      RunOptions opt =
          MakeRunOptions({o->iters, o->time_ms, 0.0, "res004", o->repeat, o->threads, 0, "none"});
      if (shard_given) opt.shard = ParseShard(o->shard);
      SweepOptions s = o->s;
      s.values = SplitComma(o->values, "--values");
      s.params = ParseKeyValues(o->params);
      if (s.out.empty()) s.out = "results/sweeps/" + s.scene + ".h5";
      s.out = opt.shard.OutPath(s.out);
      CheckSweep(s);
      const auto jobs = MakeSolverJobs(SplitComma(o->solvers, "--solvers"), o->sets);
      const int ran = RunSweep(s, jobs, opt);
      if (!Cluster::leader()) return 0;  // rank 0 wrote the results and speaks for the job
      std::printf("sweep: %d jobs run now; results: %s\n", ran, s.out.c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
