// Solver settings: defaults, parsing, and errors naming field, value and rule.
#include <gtest/gtest.h>

#include "common/error.h"
#include "solvers/registry.h"

namespace ncp {
namespace {

std::string ErrorOf(const std::string& solver, std::map<std::string, std::string> kv) {
  try {
    Settings::Parse(solver, FindSolver(solver).settings, kv);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Settings, DefaultsAreListedInFull) {
  const Settings s = Settings::Parse("apgd", FindSolver("apgd").settings, {});
  EXPECT_EQ(s.ToString(), "friction_model=coulomb;restart=1;step_shrink=0.9");
}

TEST(Settings, ParsesNumbersBooleansAndChoices) {
  const Settings s = Settings::Parse("apgd", FindSolver("apgd").settings,
                                     {{"friction_model", "ccp"}, {"restart", "false"}});
  EXPECT_EQ(s.GetInt("friction_model"), 1);
  EXPECT_FALSE(s.GetBool("restart"));
}

TEST(Settings, ErrorsNameFieldValueAndRule) {
  EXPECT_EQ(ErrorOf("pgs", {{"omega", "2.5"}}), "pgs.omega = 2.5: must be in (0, 2)");
  EXPECT_EQ(ErrorOf("pgs", {{"omega", "abc"}}), "pgs.omega = abc: must be a finite number");
  EXPECT_EQ(ErrorOf("pgs", {{"nncg", "0.5"}}), "pgs.nncg = 0.5: must be an integer in [0, 1]");
  EXPECT_EQ(ErrorOf("apgd", {{"friction_model", "x"}}),
            "apgd.friction_model = x: must be one of coulomb ccp");
  EXPECT_EQ(ErrorOf("pj", {{"foo", "1"}}), "pj.foo: unknown setting (known: omega)");
}

TEST(Settings, UnknownSolverNamesTheKnownOnes) {
  try {
    FindSolver("nope");
    FAIL();
  } catch (const Error& e) {
    // One line naming the value and every registered solver, in registry order.
    std::string known;
    for (const SolverEntry& s : Solvers()) known += (known.empty() ? "" : ", ") + s.name;
    EXPECT_EQ(std::string(e.what()), "solver 'nope': unknown (known: " + known + ")");
    EXPECT_NE(known.find("pgs, pj, apgd, admm-full"), std::string::npos);
  }
}

TEST(Settings, KeyValueLists) {
  const auto kv = ParseKeyValues("a=1,b=x;c=");
  EXPECT_EQ(kv.at("a"), "1");
  EXPECT_EQ(kv.at("b"), "x");
  EXPECT_EQ(kv.at("c"), "");
  EXPECT_THROW(ParseKeyValues("novalue"), Error);
}

}  // namespace
}  // namespace ncp
