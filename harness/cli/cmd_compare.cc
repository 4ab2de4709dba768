#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/cli/split.h"
#include "harness/compare.h"
#include "harness/results_store.h"
#include "harness/output_path.h"
#include "problems/io/file_write.h"

namespace ncp::cli {

void AddCompare(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "compare", "compare a results file with a baseline; exit 1 when a solver got less accurate");
  struct Opts {
    std::string base, now, metrics = "res004,natmap", out;
    CompareOptions co;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("baseline", o->base, "baseline results file (.h5)")->required();
  cmd->add_option("new", o->now, "new results file (.h5)")->required();
  cmd->add_option("--tol-decades", o->co.tol_decades,
                  "allowed increase of a final residual, in decades")->capture_default_str();
  cmd->add_option("--metrics", o->metrics, "final residuals to compare")->capture_default_str();
  cmd->add_option("--floor", o->co.floor, "residuals below this count as equal")
      ->capture_default_str();
  cmd->add_option("-o,--out", o->out, "also write the Markdown table to this file");
  cmd->callback([&action, o] {
    action = [o] {
      o->co.metrics.clear();
      for (const std::string& m : SplitComma(o->metrics))
        o->co.metrics.push_back(MetricFromName(m.c_str()));
      CheckCompareOptions(o->co);
      if (!o->out.empty()) CheckOutputNotAnInput("--out", o->out, {o->base, o->now});
      const std::vector<RunRecord> base = ReadResults(o->base), now = ReadResults(o->now);
      CompareResult r;
      try {
        r = CompareRuns(base, now, o->co);
      } catch (const Error& e) {  // name the files: the rule alone does not say which input
        throw Error(fmt::format("{} vs {}: {}", o->base, o->now, e.what()));
      }
      const std::string md = CompareMarkdown(r, o->co), summary = CompareSummary(r, o->co);
      std::fputs(md.c_str(), stdout);
      std::printf("\n%s\n", summary.c_str());
      if (!o->out.empty()) {
        WriteFileAtomically(o->out, md + "\n" + summary + "\n");
      }
      return r.regressions ? 1 : 0;
    };
  });
}

}  // namespace ncp::cli
