#include <cstdio>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/cli/commands.h"
#include "harness/inputs.h"
#include "harness/output_lock.h"
#include "harness/output_path.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_io.h"
#include "problems/model/bitwise_compare.h"
#include "problems/model/fold_soft.h"
#include "problems/model/local_form.h"
#include "problems/model/validate.h"

namespace ncp::cli {

void AddConvert(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("convert", "convert between fclib and ncpbench datasets");
  struct Opts {
    std::string in, out, to = "ncpbench";
    int index = 0;
    bool all = false, verify = false, local = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("input", o->in, "fclib file or ncpbench dataset")->required();
  cmd->add_option("output", o->out, "output file")->required();
  cmd->add_option("--to", o->to, "ncpbench | fclib")
      ->check(CLI::IsMember({"ncpbench", "fclib"}))
      ->capture_default_str();
  auto* index = cmd->add_option(
      "--index", o->index,
      "problem index for --to fclib (one problem per file; needed when the input has several)");
  cmd->add_flag("--all", o->all, "--to fclib: every problem, as <output>/<problem name>.hdf5");
  cmd->add_flag("--local", o->local,
                "--to fclib: write the local (Delassus) form W = J A⁻¹ Jᵀ, q = J A⁻¹ b + e of a "
                "global problem (soft rows folded, unilateral rows as μ = 0 contacts; bilateral "
                "rows have no local form)");
  cmd->add_flag(
      "--verify", o->verify,
      "--to fclib: re-import each file and check A, b, J, e, W, q, mu bitwise against the "
      "problem (soft rows folded)");
  cmd->callback([&action, o, index] {
    action = [o, given_index = index->count() > 0] {
      // The fclib-only options are refused with --to ncpbench, where they would do nothing.
      if (o->to != "fclib")
        for (const auto& [given, name] :
             {std::pair{o->local, "--local"}, std::pair{o->verify, "--verify"},
              std::pair{o->all, "--all"}, std::pair{given_index, "--index"}})
          if (given) throw Error(fmt::format("{}: goes with --to fclib", name));
      if (o->all && given_index) throw Error("--index: not with --all (every problem is written)");
      CheckOutputNamed("output", o->out);
      CheckOutputNotAnInput("output", o->out, {o->in});
      // One file out (not --all's folder): held against a run writing the same path.
      std::optional<WholeOutputLock> lock;
      if (!o->all) lock.emplace(o->out);
      const auto problems = LoadProblems(o->in);
      WarnHowRead(o->in, problems);  // what is converted is what was read: the file says how
      for (const auto& p : problems)
        if (std::string err = Validate(p); !err.empty())
          throw Error(fmt::format("{}: problem '{}': {}", o->in, p.meta.name, err));
      if (o->to == "ncpbench") {
        WriteDataset(o->out, problems, {{"converted_from", o->in}});
        std::printf("wrote %zu problems to %s\n", problems.size(), o->out.c_str());
        return 0;
      }
      auto write = [o](const std::string& path, const ContactProblem& given) {
        const bool to_local = o->local && given.form == ProblemForm::kGlobal;
        const ContactProblem p = to_local ? MakeLocalForm(given) : given;
        const bool global = p.form == ProblemForm::kGlobal;
        if (global)
          WriteFclibGlobal(path, p);
        else
          WriteFclibLocal(path, p);
        // fclib has no soft rows: the written problem is another one, which the user is told
        // (and which --verify compares with).
        const ContactProblem written = global ? FoldSoftRows(p).problem : p;
        const std::size_t soft = p.constraints.size() - written.constraints.size();
        std::printf("wrote fclib %s problem '%s' to %s%s\n", global ? "global" : "local",
                    p.meta.name.c_str(), path.c_str(),
                    soft > 0 ? fmt::format(" ({} soft constraints folded into M and f: fclib has "
                                           "none)",
                                           soft)
                                   .c_str()
                             : "");
        if (!o->verify) return;
        const ContactProblem back = ReadFclib(path);
        const std::string diff = FirstBitwiseDifference(written, back);
        if (!diff.empty()) {
          std::error_code ec;  // a file that does not hold the problem is not left as if it did
          std::filesystem::remove(path, ec);
          throw Error(fmt::format("{}: round trip of problem '{}' differs: {} (file removed)", path,
                                  p.meta.name, diff));
        }
        std::printf("  round trip: A, b, J, e, W, q, mu bitwise identical%s\n",
                    soft > 0 ? " (to the problem with its soft rows folded)" : "");
      };
      if (o->all) {
        // Created when missing, as every output folder is; a file of that name is refused.
        std::error_code ec;
        if (!std::filesystem::is_directory(o->out) &&
            (!std::filesystem::create_directories(o->out, ec) || ec))
          throw Error(fmt::format("output = {}: must be a directory with --all ({})", o->out,
                                  ec ? ec.message() : "a file of that name exists"));
        auto file_of = [o](const ContactProblem& p) {
          return (std::filesystem::path(o->out) / (p.meta.name + ".hdf5")).string();
        };
        for (const ContactProblem& p : problems)
          CheckOutputNotAnInput("output", file_of(p), {o->in});
        for (const ContactProblem& p : problems) write(file_of(p), p);
        return 0;
      }
      // One problem a file: of several, which one is for the user to say.
      if (!given_index && problems.size() > 1)
        throw Error(
            fmt::format("{}: holds {} problems and an fclib file one: give --index K or "
                        "--all",
                        o->in, problems.size()));
      if (o->index < 0 || o->index >= static_cast<int>(problems.size()))
        throw Error(fmt::format("--index = {}: must be in [0, {})", o->index, problems.size()));
      write(o->out, problems[o->index]);
      return 0;
    };
  });
}

}  // namespace ncp::cli
