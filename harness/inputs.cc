#include "harness/inputs.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <fmt/format.h>

#include "common/error.h"
#include "harness/output_path.h"
#include "problems/io/fclib_io.h"
#include "problems/model/validate.h"

namespace ncp {
namespace {

// Below this the asymmetry is the rounding of a double-precision writer: recorded, not warned.
constexpr double kWarnAsymmetry = 1e-12;

bool IsDataFile(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".h5" || ext == ".hdf5";
}

}  // namespace

void WarnHowRead(const std::string& path, const std::vector<ContactProblem>& problems) {
  double w = 0.0, a = 0.0;
  int mirrored = 0, both = 0;
  for (const ContactProblem& p : problems) {
    mirrored += p.meta.params.count("W_mirrored") > 0;
    both += p.meta.params.count("fclib_local_ignored") > 0;
    if (auto it = p.meta.params.find("asymmetry"); it != p.meta.params.end())
      w = std::max(w, it->second);
    if (auto it = p.meta.params.find("asymmetry_M"); it != p.meta.params.end())
      a = std::max(a, it->second);
  }
  if (w > kWarnAsymmetry)
    std::fprintf(stderr,
                 "warning: %s: W is not symmetric: max|W - W^T|/max|W| = %.2e (used as "
                 "stored or by its symmetric part, per solver: ncpbench list solvers)\n",
                 path.c_str(), w);
  if (mirrored > 0)
    std::fprintf(stderr,
                 "warning: %s: W of %d problem(s) stored as one triangle only: mirrored to both "
                 "(read as symmetric)\n",
                 path.c_str(), mirrored);
  if (both > 0)
    std::fprintf(stderr,
                 "warning: %s: holds both /fclib_global and /fclib_local: the global problem "
                 "is read, the local one left out\n",
                 path.c_str());
  if (a > kWarnAsymmetry)
    std::fprintf(stderr,
                 "warning: %s: M is not symmetric: max|M - M^T|/max|M| = %.2e (its "
                 "symmetric part is used)\n",
                 path.c_str(), a);
}

// Whether a file found in a folder is the command's output or one of its shards.
bool IsOutput(const std::filesystem::path& file, const std::string& output) {
  namespace fs = std::filesystem;
  if (output.empty()) return false;
  if (SamePath(file.string(), output)) return true;
  const fs::path out = fs::absolute(output).lexically_normal();
  const fs::path f = fs::absolute(file).lexically_normal();
  return f.parent_path() == out.parent_path() &&
         f.filename().string().rfind(out.stem().string() + ".shard-", 0) == 0;
}

std::vector<std::string> ExpandInputPaths(const std::vector<std::string>& paths,
                                          const std::string& output) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> files;
    for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
      if (e.is_regular_file(ec) && IsDataFile(e.path()) && !IsOutput(e.path(), output))
        files.push_back(e.path().string());
    if (ec) throw Error(fmt::format("{}: cannot list the folder: {}", path, ec.message()));
    if (files.empty()) throw Error(fmt::format("{}: a folder without .h5 or .hdf5 files", path));
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

LoadedInputs LoadInputs(const std::vector<std::string>& paths, bool skip_invalid, bool quiet,
                        const std::string& output) {
  LoadedInputs in;
  for (const std::string& path : ExpandInputPaths(paths, output)) {
    try {
      in.data.push_back(LoadValidated(path));
      if (!quiet) WarnHowRead(in.data.back().path, in.data.back().problems);
    } catch (const Error& e) {
      in.skipped.push_back({path, e.what()});
    }
  }
  if (!in.skipped.empty() && !skip_invalid) {
    // Every invalid file, one line each (so that a collection is fixed in one pass), the count
    // on the last: one line per refused input. A single input keeps its bare reason.
    if (in.skipped.size() == 1 && in.data.empty()) throw Error(in.skipped.front().reason);
    std::vector<std::string> lines;
    for (const SkippedInput& s : in.skipped) lines.push_back(s.reason);
    lines.back() += fmt::format(" ({} of {} inputs are invalid; --skip-invalid runs the rest)",
                                in.skipped.size(), in.skipped.size() + in.data.size());
    throw Error::Lines(lines);
  }
  // Rows and job keys name a dataset by its file's stem: two files of one stem would share
  // them (the second's jobs taken as done, their rows merged in reports).
  std::map<std::string, std::string> stems;
  for (const DatasetInput& d : in.data)
    if (auto [it, fresh] = stems.emplace(d.stem, d.path); !fresh)
      throw Error(
          fmt::format("inputs '{}' and '{}': both named '{}' (results name a dataset by its "
                      "file name without folder): rename one",
                      it->second, d.path, d.stem));
  if (in.data.empty()) {
    throw Error(fmt::format("no valid input among {} files{}", in.skipped.size(),
                            in.skipped.empty() ? "" : ": " + in.skipped.front().reason));
  }
  return in;
}

void KeepNamedProblems(std::vector<DatasetInput>& data, const std::vector<std::string>& names) {
  if (names.empty()) return;
  const std::set<std::string> wanted(names.begin(), names.end());
  std::set<std::string> found;
  std::vector<std::string> all;
  for (DatasetInput& d : data) {
    std::vector<ContactProblem> kept;
    for (ContactProblem& p : d.problems) {
      all.push_back(p.meta.name);
      if (!wanted.count(p.meta.name)) continue;
      found.insert(p.meta.name);
      kept.push_back(std::move(p));
    }
    d.problems = std::move(kept);
  }
  for (const std::string& n : names)
    if (!found.count(n)) {
      const std::size_t shown = std::min<std::size_t>(all.size(), 3);
      std::string some;
      for (std::size_t k = 0; k < shown; ++k) some += (k ? ", " : "") + all[k];
      throw Error(
          fmt::format("--problems: '{}' is no problem of the inputs (their {} problems: {}{})", n,
                      all.size(), some, all.size() > shown ? ", …" : ""));
    }
  std::erase_if(data, [](const DatasetInput& d) { return d.problems.empty(); });
}

std::string SkippedAttr(const std::vector<SkippedInput>& skipped) {
  std::string out;
  for (const SkippedInput& s : skipped) out += (out.empty() ? "" : "\n") + s.reason;
  return out;
}

}  // namespace ncp
