#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_write.h"
#include "harness/cli/commands.h"
#include "harness/results_store.h"

namespace ncp::cli {

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
      for (const std::string& in : o->inputs) {
        std::error_code ec;
        if (!fs::is_regular_file(in, ec))
          throw Error(fmt::format("merge input '{}': no such results file", in));
        // A slice that was cut short has parts but no finished file rows for them.
        if (fs::exists(in + ".parts", ec))
          std::fprintf(stderr,
                       "warning: %s.parts exists: that run did not finish; rerun it to add the "
                       "jobs in its parts\n",
                       in.c_str());
      }
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
