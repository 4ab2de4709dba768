#include <cstdio>
#include <fmt/format.h>

#include "harness/cli/commands.h"
#include "harness/cli/plugin_option.h"
#include "harness/metrics/metrics.h"
#include "problems/scenarios/rigid/scene.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/registry.h"

namespace ncp::cli {

void AddList(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("list", "list solvers (with settings), scenarios and metrics");
  auto what = std::make_shared<std::string>("all");
  cmd->add_option("what", *what, "solvers | scenarios | metrics | all")
      ->check(CLI::IsMember({"solvers", "scenarios", "metrics", "all"}));
  const auto plugins = AddPluginOption(cmd);
  cmd->callback([&action, what, plugins] {
    action = [what, plugins] {
      LoadPlugins(*plugins);  // a plug-in's solvers are listed with the built-in ones
      const bool all = *what == "all";
      if (all || *what == "solvers") {
        std::printf("solvers:\n");
        for (const SolverEntry& e : Solvers()) {
          std::printf("  %-12s %s [%s]\n", e.name.c_str(), e.description.c_str(),
                      Describe(e.local));
          for (const SettingSpec& s : e.settings) {
            // Choices by name (the value --set takes), numbers with their range.
            std::string value, range;
            if (!s.choices.empty()) {
              const auto i = static_cast<std::size_t>(s.default_value);
              value = i < s.choices.size() ? s.choices[i] : fmt::format("{:g}", s.default_value);
              for (const std::string& c : s.choices) range += (range.empty() ? "" : "|") + c;
            } else {
              value = fmt::format("{:g}", s.default_value);
              range = fmt::format("{}{:g}, {:g}{}{}", s.min_open ? "(" : "[", s.min, s.max,
                                  s.max_open ? ")" : "]", s.integer ? " integer" : "");
            }
            std::printf("      %-16s default %-8s %s — %s\n", s.name.c_str(), value.c_str(),
                        range.c_str(), s.help.c_str());
          }
        }
      }
      if (all || *what == "scenarios") {
        // Each parameter as `generate -p` takes it: name, default, range, meaning.
        auto print_params = [](const std::vector<ParamSpec>& params) {
          for (const ParamSpec& p : params)
            std::printf("      %-20s default %-10s %-18s — %s\n", p.name.c_str(),
                        FormatParamNumber(p.default_value).c_str(), ParamRange(p).c_str(),
                        p.help.c_str());
        };
        std::printf("scenarios:\n");
        for (const ScenarioEntry& s : Scenarios()) {
          std::printf("  %-16s %s\n", s.name.c_str(), s.description.c_str());
          print_params(s.params);
        }
        for (const SceneEntry& s : Scenes()) {
          std::printf("  %-16s %s\n", s.name.c_str(), s.description.c_str());
          print_params(s.params);
          std::printf("      generate: a frame every %d steps\n", s.default_every);
        }
      }
      if (all || *what == "metrics") {
        std::printf("metrics:\n");
        for (std::size_t i = 0; i < kNumMetrics; ++i)
          std::printf("  %-16s %s\n", kMetricNames[i], kMetricMeanings[i]);
      }
      return 0;
    };
  });
}

}  // namespace ncp::cli
