#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_write.h"
#include "harness/cli/commands.h"
#include "harness/output_path.h"
#include "harness/results_csv.h"
#include "harness/results_store.h"

namespace ncp::cli {

void AddExport(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "export", "a results file's runs as CSV, one row per job (for pandas and spreadsheets)");
  auto in = std::make_shared<std::string>();
  auto csv = std::make_shared<std::string>();
  cmd->add_option("results", *in, "results file (.h5)")->required();
  cmd->add_option("--csv", *csv,
                  "CSV file to write (the columns of results/README.md); - for standard output")
      ->required();
  cmd->callback([&action, in, csv] {
    action = [in, csv] {
      // "-" is standard output, as for most tools that write a table (a pipe into pandas).
      if (*csv == "-") {
        const std::string text = RunsCsv(ReadResults(*in));
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
            std::fflush(stdout) != 0)
          throw Error(fmt::format("--csv = -: writing to standard output failed: {}",
                                  std::strerror(errno)));
        return 0;
      }
      CheckOutputNamed("--csv", *csv);
      CheckOutputNotAnInput("--csv", *csv, {*in});
      const std::vector<RunRecord> rows = ReadResults(*in);
      WriteFileAtomically(*csv, RunsCsv(rows));
      std::printf("export: %zu rows to %s\n", rows.size(), csv->c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
