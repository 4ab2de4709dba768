#include "harness/cli/commands.h"
#include "harness/isolated_run.h"

namespace ncp::cli {

// Internal: the process in which an isolated solver job runs (harness/isolated_run.h); not
// listed in --help.
void AddIsolatedJob(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("isolated-job", "");
  cmd->group("");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("dir", *dir)->required();
  cmd->callback([&action, dir] { action = [dir] { return RunIsolatedJob(*dir); }; });
}

}  // namespace ncp::cli
