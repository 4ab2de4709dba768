#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/inputs.h"
#include "harness/cli/commands.h"
#include "problems/io/fclib_io.h"
#include "problems/model/descriptors.h"
#include "problems/model/validate.h"

namespace ncp::cli {

namespace {

// The sizes, validity and difficulty descriptors of one file's problems; returns how many
// are invalid.
int PrintInfo(const std::vector<ContactProblem>& problems) {
  int invalid = 0;
  std::printf("%-24s %-7s %7s %7s %9s %9s %10s  %s\n", "problem", "form", "dofs", "rows",
              "contacts", "constr.", "reference", "valid");
  for (const auto& p : problems) {
    const std::string err = Validate(p);
    if (!err.empty()) ++invalid;
    std::printf("%-24s %-7s %7d %7d %9d %9d %10s  %s\n", p.meta.name.c_str(),
                p.form == ProblemForm::kGlobal ? "global" : "local", p.num_dofs(), p.num_rows(),
                p.num_contacts(), p.num_constraints(),
                p.reference ? p.reference->solver.c_str() : "-", err.empty() ? "yes" : err.c_str());
  }
  // Difficulty descriptors (problems/model/descriptors.h); "-" where not computed.
  std::printf("\n%-24s %9s %8s %9s %10s %10s %6s %6s %10s\n", "problem", "contacts", "density",
              "rank/m", "cond(W)", "mass ratio", "mu min", "mu max", "asymmetry");
  auto num = [](double x, const char* f) {
    return std::isnan(x) ? std::string("-") : fmt::format(fmt::runtime(f), x);
  };
  for (const auto& p : problems) {
    if (!Validate(p).empty()) {  // sizes may not even agree: nothing to describe
      std::printf("%-24s (invalid)\n", p.meta.name.c_str());
      continue;
    }
    const ProblemDescriptors d = Describe(p);
    std::printf("%-24s %9d %8s %9s %10s %10s %6s %6s %10s\n", p.meta.name.c_str(), d.contacts,
                num(d.contact_density, "{:.3g}").c_str(), num(d.rank_ratio, "{:.4f}").c_str(),
                num(d.condition, "{:.3g}").c_str(), num(d.mass_ratio, "{:.3g}").c_str(),
                num(d.mu_min, "{:.3g}").c_str(), num(d.mu_max, "{:.3g}").c_str(),
                num(d.asymmetry, "{:.2g}").c_str());
  }
  return invalid;
}

}  // namespace

void AddInfo(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("info", "summarize the problems of datasets or fclib files");
  auto in = std::make_shared<std::vector<std::string>>();
  cmd->add_option("datasets", *in, "ncpbench datasets or fclib files")->required();
  cmd->callback([&action, in] {
    action = [in] {
      // Every file is described, whatever an earlier one held; an unreadable file is one
      // error line, and the exit status says whether everything named was readable and valid.
      int unreadable = 0, invalid = 0, problems = 0;
      for (std::size_t i = 0; i < in->size(); ++i) {
        // Several files: each under its name, one blank line apart.
        if (in->size() > 1) std::printf("%s== %s\n", i > 0 ? "\n" : "", (*in)[i].c_str());
        std::vector<ContactProblem> read;
        try {
          read = LoadProblems((*in)[i]);
        } catch (const Error& e) {
          if (in->size() == 1) throw;
          std::fflush(stdout);
          std::fprintf(stderr, "ncpbench: error: %s\n", e.what());
          std::printf("(unreadable)\n");
          ++unreadable;
          continue;
        }
        WarnHowRead((*in)[i], read);
        problems += static_cast<int>(read.size());
        invalid += PrintInfo(read);
      }
      std::printf(
          "rank and cond(W) from the eigenvalues of W's symmetric part above %g x the "
          "largest, for m <= %d rows\n",
          kRankRelTol, kDescribeMaxRows);
      if (invalid > 0) {
        std::fflush(stdout);
        std::fprintf(
            stderr,
            "ncpbench: error: info: %d of %d problems are invalid (the `valid` "
            "column says why)%s\n",
            invalid, problems,
            unreadable > 0
                ? fmt::format("; {} of {} files unreadable", unreadable, in->size()).c_str()
                : "");
      }
      return invalid > 0 || unreadable > 0 ? 2 : 0;
    };
  });
}

}  // namespace ncp::cli
