#include "harness/sweep.h"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <map>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/file_write.h"
#include "common/parse_number.h"
#include "harness/distribute/cluster.h"
#include "harness/output_path.h"
#include "harness/results_store.h"
#include "harness/simulate.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/scenarios/scenarios.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

std::string DataDir(const SweepOptions& s) {
  if (!s.data_dir.empty()) return s.data_dir;
  fs::path p(s.out);
  return (p.parent_path() / (p.stem().string() + ".datasets")).string();
}

// A value as it names its dataset, is compared and generates: a number in its shortest form
// ("+10", "010" and "1e1" are all "10", one dataset), any other text as given.
std::string SweepValueName(const std::string& v) {
  double number = 0.0;
  return ParseDecimal(v, &number) ? fmt::format("{}", number) : v;
}

ParamMap ParamsAt(const SweepOptions& s, const std::string& value) {
  ParamMap p = s.params;
  p[s.param] = SweepValueName(value);
  return p;
}

std::string ParamString(const ParamMap& p) {
  std::string out;
  for (const auto& [k, v] : p) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

std::vector<ContactProblem> Generate(const SweepOptions& s, const ParamMap& params) {
  return GenerateProblems(s.scene, params, s.count, s.seed, false, true);
}

// Before anything is generated: the output is a results file or nothing, and an earlier sweep
// in it generated its problems as this one does (attributes it lacks are not compared).
void CheckSweepOutput(const std::string& out,
                      const std::map<std::string, std::string>& generation) {
  if (const std::string kind = NonRegularKind(out); !kind.empty())
    throw Error(fmt::format("--out = {}: is {}: the results of a sweep go to a file", out, kind));
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(out, ec))) return;
  const std::map<std::string, std::string> found = ReadRunAttrs(out);
  for (const auto& [key, value] : generation) {
    const auto it = found.find(key);
    if (it != found.end() && it->second != value)
      throw Error(
          fmt::format("--out = {}: holds a sweep with {} = '{}', this one has '{}': "
                      "write to another file (a file holds one sweep's problems)",
                      out, key, it->second, value));
  }
}

}  // namespace

void CheckSweep(const SweepOptions& s) {
  CheckProblemCount("--count", s.count);
  if (s.values.empty()) throw Error("--values: empty list");
  if (s.params.count(s.param))
    throw Error(fmt::format("--params {}={}: is the swept --param; give it in --values only",
                            s.param, s.params.at(s.param)));
  // Compared as numbers where they are ("20" and "020" would generate and run one size twice).
  std::map<std::string, std::string> seen;  // a value's key → the text that gave it
  for (const std::string& v : s.values) {
    if (const auto [it, added] = seen.emplace(SweepValueName(v), v); !added)
      throw Error(it->second == v ? fmt::format("--values {}: given twice", v)
                                  : fmt::format("--values {}: the same value as {}, given twice", v,
                                                it->second));
    const ParamMap p = ParamsAt(s, v);
    CheckGenerateArguments(s.scene, p, s.count, s.seed);
  }
}

int RunSweep(const SweepOptions& s, const std::vector<SolverJob>& jobs, RunOptions opt) {
  CheckSweep(s);
  // What generates the datasets, values aside: a rerun onto the same output may add values and
  // solvers, but other problems at the same sizes would mix two sweeps in one file.
  const std::map<std::string, std::string> generation = {{"sweep_scene", s.scene},
                                                         {"sweep_param", s.param},
                                                         {"sweep_params", ParamString(s.params)},
                                                         {"sweep_seed", std::to_string(s.seed)},
                                                         {"sweep_count", std::to_string(s.count)}};
  CheckSweepOutput(s.out, generation);
  const std::string dir = DataDir(s);
  CreateOutputFolder("--data-dir", dir);
  CreateParentFolders(s.out);
  std::string values;
  for (const std::string& v : s.values) values += (values.empty() ? "" : ",") + v;
  opt.run_attrs = generation;
  opt.run_attrs["sweep_values"] = values;
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < s.values.size(); ++i) {
    const std::string& v = s.values[i];
    const ParamMap params = ParamsAt(s, v);
    const std::string stem = fmt::format("{}-{}{}", s.scene, s.param, SweepValueName(v));
    const std::string path = (fs::path(dir) / (stem + ".h5")).string();
    paths.push_back(path);
    opt.run_attrs["sweep_value:" + stem] = v;
    // In an MPI job the ranks generate the sizes round-robin, each into its own file.
    if (static_cast<int>(i % Cluster::size()) != Cluster::rank()) continue;
    const std::map<std::string, std::string> attrs = {{"scenario", s.scene},
                                                      {"params", ParamString(params)},
                                                      {"seed", std::to_string(s.seed)},
                                                      {"count", std::to_string(s.count)}};
    // Reuse a dataset generated by an earlier (interrupted) sweep with the same settings; it is
    // byte-identical, so the runner's job keys (which hash the file) match and finished jobs are
    // skipped.
    // Another sweep's dataset (the same attributes, other values) is regenerated; any other
    // file at the name (a results file, a dataset of the user's) is not the sweep's to replace.
    std::error_code ec;
    const bool exists = fs::exists(fs::symlink_status(path, ec));
    const bool dataset = exists && IsNcpbenchDataset(path);
    std::map<std::string, std::string> found;
    if (dataset) found = ReadDatasetAttrs(path);
    bool generated = dataset;
    for (const auto& [key, value] : attrs) generated = generated && found.count(key) > 0;
    if (exists && !generated)
      throw Error(
          fmt::format("{}: exists and is not a dataset a sweep generated; a sweep "
                      "replaces only its own: give another --data-dir or move the file",
                      path));
    const bool reuse = dataset && found == attrs;
    // An interrupted sweep with other settings left this dataset and its finished jobs in the
    // output's parts: regenerated, the rerun would merge those rows of other problems.
    if (!reuse && generated && HasFinishedParts(s.out))
      throw Error(fmt::format(
          "{}: generated by a sweep with params '{}', seed {}, count {}, and {}.parts holds "
          "finished jobs of an interrupted run: regenerated, the rerun would merge rows of "
          "problems no longer there; if they are that sweep's, rerun it with those to resume, "
          "else move this dataset away or give another --data-dir",
          path, found["params"], found["seed"], found["count"], s.out));
    if (!reuse) {
      if (!s.quiet)
        std::fprintf(stderr, "sweep: generating %s (%d problems)\n", stem.c_str(), s.count);
      const std::vector<ContactProblem> problems = Generate(s, params);
      CheckWritable(path, problems, fmt::format("{} with {}", s.scene, ParamString(params)));
      WriteDataset(path, problems, attrs);
    }
  }
  Cluster::Barrier();
  // All sizes in one campaign: one progress count, and no rank waits at a size boundary.
  std::vector<DatasetInput> data;
  for (const std::string& path : paths) data.push_back(LoadValidated(path));
  return RunAll(data, jobs, opt, s.out, s.quiet);
}

}  // namespace ncp
