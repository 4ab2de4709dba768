// A reproduction writes <id>.h5 in the results schema next to its Markdown, and `compare` reads
// two of them: two runs of 004-fig7 at 2 cases, 200 iterations without time limits (so the
// outcome does not depend on the machine's speed), agree (exit 0); a copy in which one solver's
// final residuals are three decades worse is a regression (exit 1).
#include <gtest/gtest.h>
#include <unistd.h>

#include <set>

#include "harness/results_store.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

TEST(CliReproduceCompare, TwoRunsOfFig7AgreeAndADegradedOneFails) {
  // Per process: several build folders may run the suite at once.
  const auto dir = testing::FreshDir("reproduce_compare_" + std::to_string(getpid()));
  const std::string a = (dir / "a").string(), b = (dir / "b").string();
  for (const std::string& out : {a, b}) {
    const auto r = testing::RunCli(
        "reproduce 004-fig7 --cases 2 --max-iters 200 --no-traces -q -o " + out, dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("004-fig7.h5 (20 runs)"), std::string::npos) << r.out;
  }
  const std::vector<RunRecord> rows = ReadResults(a + "/004-fig7.h5");
  ASSERT_EQ(rows.size(), 20u);  // 6 solvers × 2 cases, and subadmm at 4 more γ × 2 cases
  std::set<std::string> keys, keys_b;
  for (const RunRecord& r : rows) {
    EXPECT_TRUE(r.dataset == "004-fig7/cases" || r.dataset == "004-fig7/gamma") << r.dataset;
    EXPECT_TRUE(r.trace.empty());
    keys.insert(r.job_key);
  }
  for (const RunRecord& r : ReadResults(b + "/004-fig7.h5")) keys_b.insert(r.job_key);
  EXPECT_EQ(keys.size(), 20u);
  EXPECT_EQ(keys, keys_b);  // the same jobs, row by row

  const auto same = testing::RunCli("compare " + a + "/004-fig7.h5 " + b + "/004-fig7.h5", dir);
  EXPECT_EQ(same.code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("compare: 20 jobs, 0 regressions"), std::string::npos) << same.out;

  // canal on one case loses three decades of accuracy.
  std::vector<RunRecord> worse = ReadResults(b + "/004-fig7.h5");
  bool degraded = false;
  for (RunRecord& r : worse)
    if (r.solver == "canal" && !degraded) {
      r.final_metrics[Metric::kRes004] = std::max(r.final_metrics[Metric::kRes004], 1e-9) * 1e3;
      r.final_metrics[Metric::kNatmapAbs] =
          std::max(r.final_metrics[Metric::kNatmapAbs], 1e-9) * 1e3;
      degraded = true;
    }
  ASSERT_TRUE(degraded);
  const std::string c = (dir / "degraded.h5").string();
  WriteResults(c, worse, ReadRunAttrs(b + "/004-fig7.h5"));
  const auto bad = testing::RunCli("compare " + a + "/004-fig7.h5 " + c, dir);
  EXPECT_EQ(bad.code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("compare: 20 jobs, 1 regressions"), std::string::npos) << bad.out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncp
