#include "harness/output_path.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "common/error.h"
#include "common/file_kind.h"
#include "problems/model/validate.h"

namespace ncp {

void CheckOutputNamed(const std::string& option, const std::string& out) {
  if (out.empty()) throw Error(fmt::format("{} = '': must name a file", option));
}

bool SamePath(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::absolute(a, ec).lexically_normal() == fs::absolute(b, ec).lexically_normal()) return true;
  return fs::equivalent(a, b, ec) && !ec;
}

void CheckOutputNotAnInput(const std::string& option, const std::string& out,
                           const std::vector<std::string>& inputs) {
  for (const std::string& in : inputs)
    if (SamePath(out, in))
      throw Error(
          fmt::format("{} = '{}': is the input '{}' itself; it would be overwritten: "
                      "write to another path",
                      option, out, in));
}

void CreateOutputFolder(const std::string& option, const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return;
  if (std::filesystem::exists(std::filesystem::symlink_status(dir, ec))) {
    const std::string kind = NonRegularKind(dir);
    throw Error(fmt::format("{} = {}: is {}: must be a folder", option, dir,
                            kind.empty() ? "a file" : kind));
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("{} = {}: cannot create it: {}", option, dir, ec.message()));
}

void CheckWritable(const std::string& out, const std::vector<ContactProblem>& problems) {
  for (const ContactProblem& p : problems)
    if (std::string err = Validate(p); !err.empty())
      throw Error(fmt::format("{}: problem '{}' would be refused when read: {}; nothing written",
                              out, p.meta.name, err));
}

void WarnProblemsWithoutRows(const std::string& out, const std::vector<ContactProblem>& problems) {
  std::size_t empty = 0;
  for (const ContactProblem& p : problems) empty += p.num_rows() == 0;
  if (empty > 0)
    std::fprintf(stderr,
                 "warning: %s: %zu of %zu problems have no constraint rows (nothing for a solver "
                 "to do): check the scene's parameters (a margin below the gaps, bodies apart)\n",
                 out.c_str(), empty, problems.size());
}

}  // namespace ncp
