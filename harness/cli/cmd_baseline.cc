#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/file_write.h"
#include "harness/cli/commands.h"
#include "harness/cli/plugin_option.h"
#include "harness/cli/split.h"
#include "harness/distribute/cluster.h"
#include "harness/run_options.h"
#include "harness/runner.h"
#include "harness/output_path.h"
#include "harness/results_store.h"

namespace ncp::cli {

void AddBaseline(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "baseline", "run solvers on datasets and write one baseline results file per dataset");
  struct Opts {
    std::vector<std::string> datasets, sets;
    std::string solvers = "pgs,pj,apgd,admm-full", out, out_dir = "results/baselines";
    int iters = 200, threads = 1;
    bool quiet = false, force = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("datasets", o->datasets, "ncpbench datasets or fclib files")->required();
  cmd->add_option("-s,--solvers", o->solvers, "comma-separated solver names")
      ->capture_default_str();
  cmd->add_option("--set", o->sets, "solver setting, e.g. --set pgs.omega=1.3 (repeatable)");
  cmd->add_option("--iters", o->iters, "iteration budget per problem")->capture_default_str();
  cmd->add_option("--threads", o->threads, "OpenMP threads (0: default)")->capture_default_str();
  CLI::Option* out = cmd->add_option("-o,--out", o->out, "baseline file (only with one dataset)");
  cmd->add_option("--out-dir", o->out_dir, "folder of <dataset>.h5 files")->capture_default_str();
  cmd->add_flag("-q,--quiet", o->quiet, "no progress lines");
  cmd->add_flag("--force", o->force, "replace existing baseline files (the committed ones too)");
  const auto plugins = AddPluginOption(cmd);
  cmd->callback([&action, o, plugins, out] {
    action = [o, plugins, given_out = out->count() > 0] {
      // An empty --out would fall back to --out-dir, an empty --out-dir to the root folder.
      if (given_out) CheckOutputNamed("--out", o->out);
      CheckOutputNamed("--out-dir", o->out_dir);
      LoadPlugins(*plugins);  // before the names resolve
      // Only an iteration budget: a time budget or a tolerance check makes the final residual
      // depend on the machine, and a baseline must be reproducible. One thread by default for
      // the same reason (parallel reductions change the rounding).
      RunOptions opt = MakeRunOptions({o->iters, 0.0, 0.0, "res004", 1, o->threads, 0, "none"});
      if (!o->out.empty() && o->datasets.size() != 1)
        throw Error(fmt::format("--out = {}: only with one dataset (got {}); use --out-dir", o->out,
                                o->datasets.size()));
      const auto jobs = MakeSolverJobs(SplitComma(o->solvers, "--solvers"), o->sets);
      std::vector<DatasetInput> data;
      std::set<std::string> stems;
      for (const std::string& path : o->datasets) {
        data.push_back(LoadValidated(path));
        if (!stems.insert(data.back().stem).second)
          throw Error(fmt::format("dataset {}: stem '{}' given twice; baselines are named by stem",
                                  path, data.back().stem));
      }
      // Every target is checked before anything runs: a baseline replaces a reference that
      // others compare against, so it is never overwritten by accident.
      auto target = [&](const DatasetInput& d) {
        return o->out.empty() ? o->out_dir + "/" + d.stem + ".h5" : o->out;
      };
      const char* option = o->out.empty() ? "--out-dir" : "--out";
      // Each target's lock is held until its baseline is in place, so that no run writes it
      // meanwhile; taking it also refuses a file there that is not a results file.
      std::vector<std::unique_ptr<ResultsStore>> held;
      for (const DatasetInput& d : data) {
        for (const std::string& t : {target(d), target(d) + ".running.h5"}) {
          CheckOutputNotAnInput(option, t, o->datasets);
          if (const std::string kind = NonRegularKind(t); !kind.empty())
            throw Error(
                fmt::format("{} = {}: is {}: a baseline is a results file", option, t, kind));
        }
        if (!o->force && std::filesystem::exists(target(d)))
          throw Error(fmt::format("baseline {}: exists; pass --force to replace it", target(d)));
        if (Cluster::leader()) held.push_back(std::make_unique<ResultsStore>(target(d)));
      }
      opt.run_attrs = {{"baseline_solvers", o->solvers},
                       {"baseline_iters", std::to_string(o->iters)}};
      // A baseline holds this command's jobs only, also when it resumes an interrupted one.
      opt.only_these_jobs = true;
      for (const DatasetInput& d : data) {
        const std::string out = target(d);
        CreateParentFolders(out);
        // A baseline replaces the old one instead of resuming onto it: run into a side file
        // (resumable when interrupted), then rename it over the baseline.
        const std::string running = out + ".running.h5";
        RunAll({d}, jobs, opt, running, o->quiet);
        if (!Cluster::leader()) continue;       // rank 0 owns the file
        std::filesystem::rename(running, out);  // the side file's lock went with its run
        std::printf("baseline: %s\n", out.c_str());
      }
      return 0;
    };
  });
}

}  // namespace ncp::cli
