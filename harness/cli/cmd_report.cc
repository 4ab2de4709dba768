#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/report.h"
#include "harness/results_store.h"
#include "harness/output_path.h"
#include "common/file_write.h"

namespace ncp::cli {

void AddReport(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("report", "Markdown report of a results file");
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("results", *in, "results file (.h5)")->required();
  cmd->add_option("-o,--out", *out, "report file (.md); stdout when absent");
  cmd->callback([&action, in, out] {
    action = [in, out] {
      CheckOutputNotAnInput("--out", *out, {*in});
      const std::string md = MarkdownReport(ReadResults(*in), ReadRunAttrs(*in));
      if (out->empty()) {
        std::fputs(md.c_str(), stdout);
        return 0;
      }
      WriteFileAtomically(*out, md);
      std::printf("report: %s\n", out->c_str());
      return 0;
    };
  });
}

}  // namespace ncp::cli
