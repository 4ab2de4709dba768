#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_write.h"
#include "harness/cli/commands.h"
#include "harness/output_path.h"
#include "harness/results_store.h"

namespace ncp::cli {
namespace {

// The shards the inputs record ("K/N", "K/N; K'/N" after an earlier merge): a set with a slice
// missing, or slices of two different N, would otherwise merge without a word.
void WarnAboutShards(const std::vector<std::string>& inputs) {
  std::map<int, std::set<int>> seen;  // N → the K given
  for (const std::string& in : inputs) {
    const auto attrs = ReadRunAttrs(in);
    const auto it = attrs.find("shard");
    if (it == attrs.end()) continue;
    std::stringstream list(it->second);
    for (std::string item; std::getline(list, item, ';');) {
      int k = 0, n = 0;
      if (std::sscanf(item.c_str(), " %d/%d", &k, &n) == 2 && n > 0) seen[n].insert(k);
    }
  }
  if (seen.size() > 1) {
    std::string counts;
    for (const auto& [n, ks] : seen) counts += (counts.empty() ? "" : ", ") + std::to_string(n);
    std::fprintf(stderr, "warning: the inputs are shards of different splits (N = %s)\n",
                 counts.c_str());
    return;
  }
  for (const auto& [n, ks] : seen) {
    std::string missing;
    for (int k = 1; k <= n; ++k)
      if (!ks.count(k)) missing += (missing.empty() ? "" : ", ") + fmt::format("{}/{}", k, n);
    if (!missing.empty())
      std::fprintf(stderr, "warning: shard(s) %s not among the inputs: the merge is partial\n",
                   missing.c_str());
  }
}

}  // namespace

void AddMerge(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "merge", "combine results files (e.g. the --shard K/N slices of a campaign) into one");
  struct Opts {
    std::vector<std::string> inputs;
    std::string out;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("inputs", o->inputs,
                  "results files to merge, in order (a later row with the "
                  "same job key replaces an earlier one)")
      ->required();
  cmd->add_option("-o,--out", o->out,
                  "merged results file; rows it already has are kept unless an input replaces them")
      ->required();
  cmd->callback([&action, o] {
    action = [o] {
      namespace fs = std::filesystem;
      for (std::size_t i = 0; i < o->inputs.size(); ++i) {
        const std::string& in = o->inputs[i];
        std::error_code ec;
        if (!fs::is_regular_file(in, ec))
          throw Error(fmt::format("merge input '{}': no such results file", in));
        for (std::size_t j = 0; j < i; ++j)
          if (SamePath(in, o->inputs[j]))
            throw Error(fmt::format("merge input '{}': the same file as '{}', given twice", in,
                                    o->inputs[j]));
        // A slice that was cut short has parts but no finished file rows for them.
        if (fs::exists(in + ".parts", ec))
          std::fprintf(stderr,
                       "warning: %s.parts exists: that run did not finish; rerun it to add the "
                       "jobs in its parts\n",
                       in.c_str());
      }
      WarnAboutShards(o->inputs);
      CreateParentFolders(o->out);
      ResultsStore store(o->out);
      const MergeStats stats = store.Merge(o->inputs);
      if (stats.repeated > 0)
        std::fprintf(stderr,
                     "warning: %zu job keys were in more than one input; the later input's row "
                     "was kept\n",
                     stats.repeated);
      std::printf("merged %zu files: %zu rows in %s\n", o->inputs.size(), stats.rows,
                  o->out.c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
