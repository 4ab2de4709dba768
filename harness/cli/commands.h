// `ncpbench` subcommands: each Add* registers its options on the app and the action to run.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace ncp::cli {

using Action = std::function<int()>;

void AddList(CLI::App& app, Action& action);
void AddGenerate(CLI::App& app, Action& action);
void AddRun(CLI::App& app, Action& action);
void AddReport(CLI::App& app, Action& action);
void AddExport(CLI::App& app, Action& action);
void AddConvert(CLI::App& app, Action& action);
void AddInfo(CLI::App& app, Action& action);
void AddSimulate(CLI::App& app, Action& action);
void AddReproduce(CLI::App& app, Action& action);
void AddProfile(CLI::App& app, Action& action);
void AddBaseline(CLI::App& app, Action& action);
void AddCompare(CLI::App& app, Action& action);
void AddSweep(CLI::App& app, Action& action);
void AddMerge(CLI::App& app, Action& action);
void AddIsolatedJob(CLI::App& app, Action& action);
void AddClaims(CLI::App& app, Action& action);
void AddPeaks(CLI::App& app, Action& action);

}  // namespace ncp::cli
