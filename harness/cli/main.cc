// ncpbench: generate or load frozen contact problems, run solvers under identical budgets,
// write results and reports. Bad input: one line on stderr, exit code 2.
#include <cstdio>
#include <exception>

#include "common/error.h"
#include "harness/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ncpbench: benchmark and comparison suite for multi-contact frictional contact"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every command");
  ncp::cli::Action action;
  ncp::cli::AddList(app, action);
  ncp::cli::AddGenerate(app, action);
  ncp::cli::AddRun(app, action);
  ncp::cli::AddReport(app, action);
  ncp::cli::AddConvert(app, action);
  ncp::cli::AddInfo(app, action);
  ncp::cli::AddSimulate(app, action);
  ncp::cli::AddReproduce(app, action);
  ncp::cli::AddProfile(app, action);
  ncp::cli::AddBaseline(app, action);
  ncp::cli::AddCompare(app, action);
  ncp::cli::AddSweep(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "ncpbench: error: %s\n", e.what());
    return 2;
  }
  try {
    return action();
  } catch (const ncp::Error& e) {
    std::fprintf(stderr, "ncpbench: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ncpbench: internal error: %s\n", e.what());
    return 3;
  }
}
