#include <cstdio>
#include <tuple>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/output_path.h"
#include "harness/reproduce/claims_ledger.h"
#include "common/file_write.h"

namespace ncp::cli {

void AddClaims(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "claims", "the papers' claims with their verdicts, from reproduction results files");
  struct Opts {
    std::vector<std::string> inputs;
    std::string md, csv;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("inputs", o->inputs,
                  "reproduction results files (<id>.h5) or folders holding them, e.g. "
                  "results/reproduce/")
      ->required();
  CLI::Option* md =
      cmd->add_option("-o,--out", o->md, "also write the Markdown ledger to this file");
  CLI::Option* csv =
      cmd->add_option("--csv", o->csv, "also write one CSV row per claim to this file");
  cmd->callback([&action, o, md, csv] {
    action = [o, given_md = md->count() > 0, given_csv = csv->count() > 0] {
      for (const auto& [given, option, out] :
           {std::tuple{given_md, "--out", o->md}, std::tuple{given_csv, "--csv", o->csv}})
        if (given) {
          CheckOutputNamed(option, out);
          CheckOutputNotAnInput(option, out, o->inputs);
        }
      if (given_md && given_csv && SamePath(o->md, o->csv))
        throw Error(fmt::format("--csv = {}: the same file as --out: give two paths", o->csv));
      const Ledger l = CollectClaims(o->inputs);
      std::string command = "ncpbench claims";
      for (const std::string& in : o->inputs) command += " " + in;
      const std::string md = LedgerMarkdown(l, command);
      std::fputs(md.c_str(), stdout);
      if (!o->md.empty()) WriteFileAtomically(o->md, md);
      if (!o->csv.empty()) WriteFileAtomically(o->csv, LedgerCsv(l));
      return 0;
    };
  });
}

}  // namespace ncp::cli
