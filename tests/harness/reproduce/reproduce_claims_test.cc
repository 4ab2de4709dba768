// A reproduction's claim lines carry a verdict only where the run can support it: a capped or
// too-small run says "not assessed" with the reason, in its report and in its results file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "tests/cli_support.h"

namespace ncp {
namespace {

// Capped at --max-iters, a run cannot carry the protocol's verdicts: each claim line says "not
// assessed" with the reason, the header states the budget that ran, and the results file holds
// the same claims (/claims) for `ncpbench claims`. One test (ctest runs each in its own process,
// so a shared fixture would run the protocol once per test).
TEST(ReproduceClaims, ACappedRunAssessesNoClaim) {
  const auto dir = testing::FreshDir("reproduce_claims_" + std::to_string(getpid()));
  // Two cases, iteration-capped (no wall-time limit): the figures do not depend on the machine.
  const auto run =
      testing::RunCli("reproduce 004-fig9 --cases 2 --max-iters 2000 -q -o " + dir.string(), dir);
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string md = testing::Slurp((dir / "004-fig9.md").string());
  EXPECT_NE(md.find("Ran at: --cases 2, every measured run capped at 2000 iterations"),
            std::string::npos)
      << md;
  const auto claims = testing::RunCli("claims " + dir.string(), dir);
  ASSERT_EQ(claims.code, 0) << claims.err;
  EXPECT_NE(claims.out.find("| 004 | 0 | 0 | 0 | 0 | 3 | 3 |"), std::string::npos) << claims.out;
  EXPECT_NE(claims.out.find("--max-iters 2000: every run capped"), std::string::npos) << claims.out;

  // Every claim line ends in that verdict; none restates a yes/no of its own.
  const auto at = md.find("## The paper's claims against ours");
  ASSERT_NE(at, std::string::npos) << md;
  std::istringstream in(md.substr(at));
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("| 004", 0) != 0) continue;
    ++rows;
    EXPECT_TRUE(std::regex_search(
        line, std::regex(R"(\| not assessed \(--max-iters 2000: every run capped at 2000 )"
                         R"(iterations, not the protocol's budgets; --cases 2: below the 20 )"
                         R"(cases its verdicts need\) \|$)")))
        << line;
  }
  EXPECT_EQ(rows, 3) << md;
  for (const char* restated : {"| yes |", "| no |", "holds"})
    EXPECT_EQ(md.find(restated), std::string::npos) << restated;
  std::filesystem::remove_all(dir);
}

// Uncapped but with fewer cases than the protocol declares it needs (004-table2: 20): not
// assessed, naming the count.
TEST(ReproduceClaims, TooFewCasesAssessNoClaim) {
  const auto dir = testing::FreshDir("reproduce_claims_few_" + std::to_string(getpid()));
  const auto r = testing::RunCli("reproduce 004-table2 --cases 1 -q -o " + dir.string(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string md = testing::Slurp((dir / "004-table2.md").string());
  int rows = 0;
  for (std::size_t at = md.find("| 004 §"); at != std::string::npos;
       at = md.find("| 004 §", at + 1)) {
    const std::string line = md.substr(at, md.find('\n', at) - at);
    ++rows;
    EXPECT_NE(line.find("| not assessed (--cases 1: below the 20 cases its verdicts need) |"),
              std::string::npos)
        << line;
  }
  EXPECT_EQ(rows, 4) << md;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ncp
