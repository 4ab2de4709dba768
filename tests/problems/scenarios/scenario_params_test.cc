// Scenario parameter specs: every scenario's defaults pass its own spec; bad values (out of range,
// not whole, not finite, unknown keys) are one-line errors naming scenario.key, the value and the
// rule; `ncpbench list scenarios` shows every parameter with its range.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "problems/scenarios/params.h"
#include "problems/scenarios/rigid/scene.h"
#include "problems/scenarios/scenarios.h"
#include "tests/cli_support.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

// (scenario, spec) of every registered scenario and scene.
std::vector<std::pair<std::string, const std::vector<ParamSpec>*>> AllSpecs() {
  std::vector<std::pair<std::string, const std::vector<ParamSpec>*>> out;
  for (const ScenarioEntry& e : Scenarios()) out.emplace_back(e.name, &e.params);
  for (const SceneEntry& e : Scenes()) out.emplace_back(e.name, &e.params);
  return out;
}

// The error message of ParseParams on a registered scenario or scene.
std::string ParamsError(const std::string& scenario,
                        const std::map<std::string, std::string>& given) {
  try {
    if (const SceneEntry* scene = FindScene(scenario))
      SceneParams(*scene, given);
    else
      FindScenario(scenario).generate(given, 0, 1);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioParams, EveryDefaultPassesItsOwnSpec) {
  const auto all = AllSpecs();
  EXPECT_EQ(all.size(), Scenarios().size() + Scenes().size());
  for (const auto& [scenario, specs] : all) {
    SCOPED_TRACE(scenario);
    EXPECT_FALSE(specs->empty());
    std::set<std::string> names;
    std::map<std::string, std::string> given;
    for (const ParamSpec& s : *specs) {
      EXPECT_TRUE(names.insert(s.name).second) << s.name << " declared twice";
      EXPECT_FALSE(s.help.empty()) << s.name;
      EXPECT_LE(s.min, s.max) << s.name;
      if (s.integer) {
        EXPECT_TRUE(std::isfinite(s.min) && std::isfinite(s.max)) << s.name;
      }
      EXPECT_NO_THROW(CheckParam(scenario, s, s.default_value)) << s.name;
      given[s.name] = fmt::format("{}", s.default_value);  // shortest text that reads back exactly
    }
    // Every default given explicitly parses to itself.
    const std::map<std::string, double> parsed = ParseParams(scenario, *specs, given);
    EXPECT_EQ(parsed, ParamDefaults(*specs));
  }
  // The generators accept their defaults (the cheap one here; the others have their own tests).
  EXPECT_EQ(FindScenario("random").generate({}, 1, 1).size(), 1u);
  EXPECT_EQ(FindScene("sliding_cubes")->defaults().at("cubes"), 100.0);
}

TEST(ScenarioParams, RulesAndNumbersArePrintedShort) {
  EXPECT_EQ(FormatParamNumber(1e6), "1e6");
  EXPECT_EQ(FormatParamNumber(5e-5), "5e-5");
  EXPECT_EQ(FormatParamNumber(0.5), "0.5");
  EXPECT_EQ(FormatParamNumber(120), "120");
  EXPECT_EQ(FormatParamNumber(7850), "7850");
  EXPECT_EQ(FormatParamNumber(1e4), "1e4");
  EXPECT_EQ(FormatParamNumber(2e5), "2e5");
  EXPECT_EQ(FormatParamNumber(1.2e5), "1.2e5");
  EXPECT_EQ(FormatParamNumber(12345), "12345");
  EXPECT_EQ(FormatParamNumber(kNoLimit), "inf");
  EXPECT_EQ(ParamRange(WholeParam("n", 1, 1, 1e6, "h")), "[1, 1e6] integer");
  EXPECT_EQ(ParamRange(PositiveParam("x", 1, "h")), "(0, inf)");
  EXPECT_EQ(ParamRange(RealParam("p", 0.3, 0, 0.5, "h", false, true)), "[0, 0.5)");
  EXPECT_EQ(ParamRule(WholeParam("n", 1, 1, 1e6, "h")), "must be a whole number in [1, 1e6]");
  EXPECT_EQ(ParamRule(NonNegativeParam("x", 1, "h")), "must be >= 0");
  EXPECT_EQ(ParamRule(PositiveParam("x", 1, "h")), "must be > 0");
  EXPECT_EQ(ParamRule(RealParam("e", 0.2, 0, 1, "h", true)), "must be in (0, 1]");
}

TEST(ScenarioParams, BadValuesAreOneLineErrorsNamingKeyValueAndRule) {
  const std::pair<std::pair<std::string, std::map<std::string, std::string>>, std::string> cases[] =
      {
          // Out of range and not whole.
          {{"laikago_drop", {{"robots", "-3"}}},
           "laikago_drop.robots = -3: must be a whole number in [1, 1e6]"},
          {{"laikago_drop", {{"robots", "2.5"}}},
           "laikago_drop.robots = 2.5: must be a whole number in [1, 1e6]"},
          {{"random", {{"contacts", "-1"}}},
           "random.contacts = -1: must be a whole number in [0, 1e6]"},
          {{"random", {{"contacts", "1e7"}}},
           "random.contacts = 1e7: must be a whole number in [0, 1e6]"},
          {{"random", {{"articulated", "2"}}},
           "random.articulated = 2: must be a whole number in [0, 1]"},
          {{"random", {{"ground_fraction", "1.5"}}},
           "random.ground_fraction = 1.5: must be in [0, 1]"},
          {{"random", {{"body_size", "0"}}}, "random.body_size = 0: must be > 0"},
          {{"bolt_nut", {{"erp", "0"}}}, "bolt_nut.erp = 0: must be in (0, 1]"},
          {{"bolt_nut", {{"mu", "-1"}}}, "bolt_nut.mu = -1: must be >= 0"},
          {{"dish_piling", {{"segments", "12.5"}}},
           "dish_piling.segments = 12.5: must be a whole number in [8, 1e4]"},
          {{"dish_piling", {{"mass_pot", "-5"}}}, "dish_piling.mass_pot = -5: must be > 0"},
          {{"soft_mat", {{"layers", "65"}}},
           "soft_mat.layers = 65: must be a whole number in [0, 64]"},
          {{"soft_mat", {{"size", "0"}}}, "soft_mat.size = 0: must be in (0, 64]"},
          {{"fem_beam", {{"gap", "0.05"}}}, "fem_beam.gap = 0.05: must be in (0, 0.05)"},
          {{"cable", {{"poisson", "0.5"}}}, "cable.poisson = 0.5: must be in [0, 0.5)"},
          {{"pouring", {{"tilt_time", "0"}}}, "pouring.tilt_time = 0: must be > 0"},
          // Not a finite number.
          {{"random", {{"mu_min", "inf"}}},
           "random.mu_min = inf: must be a finite number in decimal notation"},
          {{"stir", {{"radius", "nan"}}},
           "stir.radius = nan: must be a finite number in decimal notation"},
          {{"stir", {{"spheres", "x"}}},
           "stir.spheres = x: must be a finite number in decimal notation"},
          {{"bolt_nut", {{"force", ""}}},
           "bolt_nut.force = : must be a finite number in decimal notation"},
          {{"card_houses", {{"levels", "3x"}}},
           "card_houses.levels = 3x: must be a finite number in decimal notation"},
          {{"stir", {{"spheres", "0x10"}}},
           "stir.spheres = 0x10: must be a finite number in decimal notation"},
          // Rules between parameters, checked after the spec.
          {{"random", {{"mu_min", "2"}}}, "random.mu_min = 2: need 0 <= mu_min <= mu_max"},
          {{"dish_piling", {{"penetration", "0.01"}}},
           "dish_piling.penetration = 0.01: must be in (0, margin = 0.001)"},
      };
  for (const auto& [input, expected] : cases) {
    const auto& [scenario, given] = input;
    EXPECT_EQ(ParamsError(scenario, given), expected);
  }
}

TEST(ScenarioParams, UnknownKeysSuggestTheClosestName) {
  std::string msg = ParamsError("random", {{"contcts", "8"}});
  EXPECT_EQ(msg.rfind("random.contcts: unknown parameter; did you mean 'contacts'? (known: ", 0),
            0u)
      << msg;
  msg = ParamsError("laikago_drop", {{"robot", "2"}});
  EXPECT_EQ(msg.rfind("laikago_drop.robot: unknown parameter; did you mean 'robots'?", 0), 0u)
      << msg;
  EXPECT_NE(msg.find("known: robots, kp, kd"), std::string::npos) << msg;
  msg = ParamsError("dish_piling", {{"zzzzzzzz", "1"}});
  EXPECT_EQ(msg.rfind("dish_piling.zzzzzzzz: unknown parameter (known: ", 0), 0u) << msg;
  for (const auto& [scenario, specs] : AllSpecs()) {
    const std::string m = ParamsError(scenario, {{"nosuch_key", "1"}});
    EXPECT_EQ(m.rfind(scenario + ".nosuch_key: unknown parameter", 0), 0u) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(ScenarioParams, ParseParamsKeepsDefaultsAndReadsGivenValues) {
  const std::vector<ParamSpec> specs = {WholeParam("n", 4, 1, 10, "count"),
                                        PositiveParam("x", 0.5, "size [m]")};
  auto v = ParseParams("t", specs, {{"n", "7"}});
  EXPECT_EQ(v.at("n"), 7.0);
  EXPECT_EQ(v.at("x"), 0.5);
  v = ParseParams("t", specs, {{"x", "1e-3"}, {"n", "1e1"}});
  EXPECT_EQ(v.at("n"), 10.0);
  EXPECT_EQ(v.at("x"), 1e-3);
  testing::ExpectError(
      [&] {
        ParseParams("t", specs, {{"n", "11"}});
      },
      {"t.n = 11: must be a whole number in [1, 10]"});
  testing::ExpectError(
      [&] {
        ParseParams("t", specs, {{"x", "-inf"}});
      },
      {"t.x = -inf: must be a finite number in decimal notation"});
  testing::ExpectError(
      [&] {
        ParseParams("t", {}, {{"x", "1"}});
      },
      {"t.x: unknown parameter (known: none)"});
}

// Each line of `list scenarios` under a scenario: "      name  default D  range  — help".
TEST(ScenarioParams, ListScenariosShowsEveryParameterWithItsRange) {
  const auto dir = testing::FreshDir("list_scenarios");
  const auto r = testing::RunCli("list scenarios", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, std::vector<std::string>> lines;  // scenario → its parameter lines
  std::istringstream in(r.out);
  std::string line, current;
  while (std::getline(in, line)) {
    if (line.rfind("      ", 0) == 0)
      lines[current].push_back(line.substr(6));
    else if (line.rfind("  ", 0) == 0)
      current = line.substr(2, line.find(' ', 2) - 2);
  }
  auto find = [&](const std::string& scenario, const std::string& name) -> std::string {
    for (const std::string& l : lines[scenario])
      if (l.rfind(name + " ", 0) == 0) return l;
    return "";
  };
  const std::string robots = find("laikago_drop", "robots");
  EXPECT_NE(robots.find("default 8 "), std::string::npos) << robots;
  EXPECT_NE(robots.find("[1, 1e6] integer"), std::string::npos) << robots;
  EXPECT_NE(robots.find("— Laikago robots"), std::string::npos) << robots;
  const std::string contacts = find("random", "contacts");
  EXPECT_NE(contacts.find("default 50 "), std::string::npos) << contacts;
  EXPECT_NE(contacts.find("[0, 1e6] integer"), std::string::npos) << contacts;
  EXPECT_NE(find("random", "articulated").find("[0, 1] integer"), std::string::npos);
  EXPECT_NE(find("bolt_nut", "erp").find("(0, 1]"), std::string::npos);
  for (const auto& [scenario, specs] : AllSpecs())
    for (const ParamSpec& s : *specs) {
      const std::string l = find(scenario, s.name);
      EXPECT_NE(l.find(ParamRange(s)), std::string::npos) << scenario << "." << s.name << ": " << l;
      EXPECT_NE(l.find(s.help), std::string::npos) << scenario << "." << s.name << ": " << l;
    }
}

}  // namespace
}  // namespace ncp
