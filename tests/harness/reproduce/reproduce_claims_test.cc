// A reproduction's claim lines test the paper's statement against the run's own figures: 004
// says SubADMM struggles below res004 1e-6 on dish piling, so where ours gets under 1e-8 on every
// case the line must not say "reproduced".
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

// Best res004 per case of `solver` from <id>-traces.csv (solver,case,iteration,time_s,res004).
std::map<int, double> BestPerCase(const std::string& csv, const std::string& solver) {
  std::map<int, double> best;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string name, c, it, t, r;
    std::getline(f, name, ',');
    std::getline(f, c, ',');
    std::getline(f, it, ',');
    std::getline(f, t, ',');
    std::getline(f, r, ',');
    if (name != solver) continue;
    const int k = std::stoi(c);
    const double v = std::stod(r);
    const auto [pos, fresh] = best.emplace(k, v);
    if (!fresh) pos->second = std::min(pos->second, v);
  }
  return best;
}

class Fig9Claims : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(testing::FreshDir("reproduce_claims_" + std::to_string(getpid())));
    // Two cases, iteration-capped (no wall-time limit): the figures do not depend on the machine.
    run_ = new testing::CliResult(
        testing::RunCli("reproduce 004-fig9 --cases 2 --max-iters 2000 -q -o " + dir_->string(), *dir_));
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete run_;
    delete dir_;
  }
  static std::filesystem::path* dir_;
  static testing::CliResult* run_;
};
std::filesystem::path* Fig9Claims::dir_ = nullptr;
testing::CliResult* Fig9Claims::run_ = nullptr;

TEST_F(Fig9Claims, SubadmmLineIsNotReproducedWhenEveryCaseReaches1e8) {
  ASSERT_EQ(run_->code, 0) << run_->err;
  const std::string md = testing::Slurp((*dir_ / "004-fig9.md").string());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      md, m, std::regex(R"(\| [^|]*subadmm struggles below[^|]*\| median best ([0-9.e+-]+) over )"
                        R"(\d+ cases \| ([a-z ]+) \|)")))
      << md;
  const std::string verdict = m[2].str();
  const auto best = BestPerCase(testing::Slurp((*dir_ / "004-fig9-traces.csv").string()), "subadmm");
  ASSERT_EQ(best.size(), 2u);
  const bool all_below = std::all_of(best.begin(), best.end(), [](const auto& kv) { return kv.second <= 1e-8; });
  if (!all_below) GTEST_SKIP() << "subadmm did not reach 1e-8 on every case on this build: " << m[0];
  EXPECT_NE(verdict, "reproduced") << m[0];
  EXPECT_EQ(verdict, "contradicted") << m[0];  // a median at or under 1e-8 is 2 decades below
}

TEST_F(Fig9Claims, EveryClaimLineEndsInAVerdict) {
  ASSERT_EQ(run_->code, 0) << run_->err;
  const std::string md = testing::Slurp((*dir_ / "004-fig9.md").string());
  const auto at = md.find("## The paper's claims against ours");
  ASSERT_NE(at, std::string::npos) << md;
  std::istringstream in(md.substr(at));
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("| 004", 0) != 0) continue;
    ++rows;
    EXPECT_TRUE(std::regex_search(line, std::regex(R"(\| (reproduced|not reproduced|contradicted) \|$)")))
        << line;
  }
  EXPECT_EQ(rows, 3) << md;
  for (const char* restated : {"| yes |", "| no |", "holds"})
    EXPECT_EQ(md.find(restated), std::string::npos) << restated;
}

}  // namespace
}  // namespace ncp
