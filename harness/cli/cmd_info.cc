#include <cstdio>

#include "harness/cli/commands.h"
#include "problems/io/fclib_io.h"
#include "problems/model/validate.h"

namespace ncp::cli {

void AddInfo(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("info", "summarize the problems of a dataset or fclib file");
  auto in = std::make_shared<std::string>();
  cmd->add_option("dataset", *in, "ncpbench dataset or fclib file")->required();
  cmd->callback([&action, in] {
    action = [in] {
      const auto problems = LoadProblems(*in);
      std::printf("%-24s %-7s %7s %7s %9s %9s %10s  %s\n", "problem", "form", "dofs", "rows",
                  "contacts", "constr.", "reference", "valid");
      for (const auto& p : problems) {
        const std::string err = Validate(p);
        std::printf("%-24s %-7s %7d %7d %9d %9d %10s  %s\n", p.meta.name.c_str(),
                    p.form == ProblemForm::kGlobal ? "global" : "local", p.num_dofs(), p.num_rows(),
                    p.num_contacts(), p.num_constraints(),
                    p.reference ? p.reference->solver.c_str() : "-",
                    err.empty() ? "yes" : err.c_str());
      }
      return 0;
    };
  });
}

}  // namespace ncp::cli
