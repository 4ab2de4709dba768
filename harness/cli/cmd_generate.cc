#include <cstdio>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/cli/seed_option.h"
#include "harness/memory_cap.h"
#include "harness/output_lock.h"
#include "harness/simulate.h"
#include "harness/output_path.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"

namespace ncp::cli {

// Of the physical memory: the rest for the system and the writer's copy of the problems.
constexpr double kGenerateMemoryFraction = 0.8;

void AddGenerate(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("generate", "generate a dataset of problems from a scenario");
  struct Opts {
    std::string scenario, out, params;
    int count = 10;
    std::uint64_t seed = 1;
    bool quiet = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scenario", o->scenario, "scenario name (see `ncpbench list scenarios`)")
      ->required();
  cmd->add_option("-o,--out", o->out, "output dataset (.h5)")->required();
  cmd->add_option("-n,--count", o->count, "number of problems (scenes: recorded frames)")
      ->capture_default_str();
  AddSeedOption(cmd, o->seed, "first seed; problem i uses seed + i");
  cmd->add_option("-p,--params", o->params, "scenario parameters key=value,key=value");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress lines (scenes print one every 24 steps)");
  cmd->callback([&action, o] {
    action = [o] {
      CheckOutputNamed("--out", o->out);
      CheckProblemCount("--count", o->count);
      const ParamMap params = ParseKeyValues(o->params);
      CheckGenerateArguments(o->scenario, params, o->count, o->seed);  // before any folder
      const WholeOutputLock lock(o->out);  // a run writing -o would replace it, or it the run's
      // A scene at the top of its ranges can ask for more than the machine has (card_houses
      // levels=1000: 20 GB): out of memory is then one line, not the OOM killer's silence.
      CapAddressSpace(MemoryCapBytes(kGenerateMemoryFraction));
      const std::vector<ContactProblem> problems =
          GenerateProblems(o->scenario, params, o->count, o->seed, true, o->quiet);
      // Validated in range, the parameters may still overflow together: the message names them.
      CheckWritable(
          o->out, problems,
          o->params.empty() ? std::string() : fmt::format("{} with {}", o->scenario, o->params));
      WarnProblemsWithoutRows(o->out, problems);
      WriteDataset(
          o->out, problems,
          {{"scenario", o->scenario}, {"params", o->params}, {"seed", std::to_string(o->seed)}});
      std::printf("wrote %zu problems to %s\n", problems.size(), o->out.c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
