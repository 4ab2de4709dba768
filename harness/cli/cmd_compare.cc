#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/cli/split.h"
#include "harness/compare.h"
#include "harness/results_store.h"
#include "harness/output_path.h"
#include "common/file_write.h"

namespace ncp::cli {
namespace {

// The rows of a results file, or of every results file directly in a folder (a folder of
// baselines, one per dataset; files in name order).
std::vector<RunRecord> RowsOf(const std::string& path, const char* what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return ReadResults(path);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(path, ec))
    if (e.path().extension() == ".h5" && e.is_regular_file(ec)) files.push_back(e.path().string());
  if (ec) throw Error(fmt::format("{} folder '{}': {}", what, path, ec.message()));
  if (files.empty())
    throw Error(fmt::format("{} folder '{}': holds no results file (*.h5)", what, path));
  std::sort(files.begin(), files.end());
  std::vector<RunRecord> rows;
  std::map<std::string, std::string> file_of;  // job key → the file that holds it
  for (const std::string& f : files) {
    std::vector<RunRecord> part = ReadResults(f);
    // Two files with one job would be resolved by their names' order, silently.
    for (const RunRecord& r : part)
      if (const auto [it, added] = file_of.emplace(r.job_key, f); !added && it->second != f)
        throw Error(
            fmt::format("{} folder '{}': '{}' and '{}' both hold job '{}': keep one "
                        "(or merge them with `ncpbench merge`)",
                        what, path, it->second, f, r.job_key));
    rows.insert(rows.end(), std::make_move_iterator(part.begin()),
                std::make_move_iterator(part.end()));
  }
  return rows;
}

}  // namespace

void AddCompare(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "compare",
      "compare results with a baseline; exit 1 when a solver got less accurate or a "
      "baseline job is missing");
  struct Opts {
    std::string base, now, metrics = "res004,natmap", out;
    CompareOptions co;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("baseline", o->base, "baseline results file (.h5), or a folder of them")
      ->required();
  cmd->add_option("new", o->now, "new results file (.h5), or a folder of them")->required();
  cmd->add_flag("--allow-missing", o->co.allow_missing,
                "a baseline job missing from the new results is reported, not a regression");
  cmd->add_option("--tol-decades", o->co.tol_decades,
                  "allowed increase of a final residual, in decades")
      ->capture_default_str();
  cmd->add_option("--metrics", o->metrics, "final residuals to compare")->capture_default_str();
  cmd->add_option("--floor", o->co.floor, "residuals below this count as equal")
      ->capture_default_str();
  cmd->add_option("-o,--out", o->out, "also write the Markdown table to this file");
  cmd->callback([&action, o] {
    action = [o] {
      o->co.metrics.clear();
      for (const std::string& m : SplitComma(o->metrics, "--metrics")) {
        const Metric metric = MetricFromName(m.c_str());
        if (std::find(o->co.metrics.begin(), o->co.metrics.end(), metric) != o->co.metrics.end())
          throw Error(fmt::format("--metrics = {}: {} given twice", o->metrics, m));
        o->co.metrics.push_back(metric);
      }
      CheckCompareOptions(o->co);
      if (!o->out.empty()) CheckOutputNotAnInput("--out", o->out, {o->base, o->now});
      const std::vector<RunRecord> base = RowsOf(o->base, "baseline"), now = RowsOf(o->now, "new");
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
      return CompareFailed(r, o->co) ? 1 : 0;
    };
  });
}

}  // namespace ncp::cli
