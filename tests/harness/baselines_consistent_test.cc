// The committed baselines (results/baselines/) are one set: every file made by the same solver
// list and budget, from a committed revision (no "-dirty"), so that `make regress` compares like
// with like and a solver missing from one dataset's baseline cannot go unnoticed.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "harness/results_store.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

std::string Attr(const std::map<std::string, std::string>& a, const std::string& key) {
  const auto it = a.find(key);
  return it == a.end() ? "(none)" : it->second;
}

TEST(Baselines, OneSolverSetAndBudgetFromACommittedRevision) {
  const fs::path dir = fs::path(NCP_SOURCE_DIR) / "results" / "baselines";
  std::string solvers, iters;
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".h5") continue;
    const auto a = ReadRunAttrs(e.path().string());
    const std::string name = e.path().filename().string();
    if (files++ == 0) solvers = Attr(a, "baseline_solvers"), iters = Attr(a, "baseline_iters");
    EXPECT_EQ(Attr(a, "baseline_solvers"), solvers) << name;
    EXPECT_EQ(Attr(a, "baseline_iters"), iters) << name;
    EXPECT_EQ(Attr(a, "git_revision").find("dirty"), std::string::npos) << name;
    // Every solver of the set has a row on every problem of the file.
    std::map<std::string, int> per_solver;
    for (const RunRecord& r : ReadResults(e.path().string())) ++per_solver[r.solver];
    std::string listed;
    for (const auto& [s, n] : per_solver) listed += (listed.empty() ? "" : ",") + s;
    EXPECT_EQ(per_solver.size(),
              static_cast<std::size_t>(std::count(solvers.begin(), solvers.end(), ',') + 1))
        << name << ": " << listed << " vs " << solvers;
  }
  EXPECT_GE(files, 5);
  const auto repro = ReadRunAttrs((dir / "reproduce" / "004-fig7.h5").string());
  EXPECT_EQ(Attr(repro, "git_revision").find("dirty"), std::string::npos);
}

}  // namespace
}  // namespace ncp
