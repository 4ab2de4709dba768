// Solver settings: defaults, parsing, and errors naming field, value and rule.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "common/error.h"
#include "solvers/apgd/apgd.h"
#include "solvers/registry.h"
#include "solvers/settings_table.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

std::string SettingsError(const std::string& solver, std::map<std::string, std::string> kv) {
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
  EXPECT_EQ(s.Choice<ApgdSettings::FrictionModel>("friction_model"),
            ApgdSettings::FrictionModel::kCcp);
  EXPECT_FALSE(s.GetBool("restart"));
}

enum class Color { kRed, kGreen, kBlue };
constexpr auto kColors =
    ChoiceNames<Color>({{Color::kRed, "red"}, {Color::kGreen, "green"}, {Color::kBlue, "blue"}});

TEST(Settings, ChoiceSpecListsTheEnumsNamesInOrder) {
  const SettingSpec spec = ChoiceSpec<kColors>("color", Color::kGreen, "a colour");
  EXPECT_EQ(spec.choices, (std::vector<std::string>{"red", "green", "blue"}));
  EXPECT_EQ(spec.default_value, 1.0);
  EXPECT_EQ(spec.help, "a colour");
  const Settings d = Settings::Parse("t", {spec}, {});
  EXPECT_EQ(d.Choice<Color>("color"), Color::kGreen);
  EXPECT_EQ(d.ToString(), "color=green");
  EXPECT_EQ(Settings::Parse("t", {spec}, {{"color", "blue"}}).Choice<Color>("color"), Color::kBlue);
}

TEST(Settings, ChoiceRefusesNonChoiceSettingsAndBadIndices) {
  const std::vector<SettingSpec> specs = {
      {.name = "omega", .default_value = 1.0, .min = 0.0, .max = 2.0},
      // A default outside the choices: Parse takes defaults as declared.
      {.name = "mode", .default_value = 3.0, .choices = {"a", "b", "c"}},
      {.name = "half", .default_value = 0.5, .choices = {"a", "b"}}};
  const Settings s = Settings::Parse("t", specs, {});
  const auto error_of = [&](const std::string& name) -> std::string {
    try {
      s.Choice<Color>(name);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of("omega"), "t.omega: not a choice setting");
  EXPECT_EQ(error_of("mode"), "t.mode = 3: not the index of one of its 3 choices");
  EXPECT_EQ(error_of("half"), "t.half = 0.5: not the index of one of its 2 choices");
  EXPECT_EQ(error_of("nosuch"), "t.nosuch: no such setting");
}

// A default a user could not type back is a spec's mistake: every numeric default of every entry
// lies within its own range (and is whole where the setting is an integer).
TEST(Settings, EveryNumericDefaultSatisfiesItsOwnRule) {
  for (const SolverEntry& e : Solvers())
    for (const SettingSpec& spec : e.settings) {
      if (!spec.choices.empty()) continue;
      const double v = spec.default_value;
      const bool ok = (spec.min_open ? v > spec.min : v >= spec.min) &&
                      (spec.max_open ? v < spec.max : v <= spec.max) &&
                      (!spec.integer || v == std::floor(v));
      EXPECT_TRUE(ok) << e.name << "." << spec.name << " = " << v;
    }
}

// Every choice read by a solver goes through Choice: each default is one of its choices.
TEST(Settings, EveryChoiceDefaultIsOneOfItsChoices) {
  for (const SolverEntry& e : Solvers()) {
    const Settings s = Settings::Parse(e.name, e.settings, {});
    for (const SettingSpec& spec : e.settings) {
      if (spec.choices.empty()) continue;
      EXPECT_NO_THROW(s.ChoiceIndex(spec.name)) << e.name << "." << spec.name;
    }
  }
}

TEST(Settings, ErrorsNameFieldValueAndRule) {
  EXPECT_EQ(SettingsError("pgs", {{"omega", "2.5"}}), "pgs.omega = 2.5: must be in (0, 2)");
  EXPECT_EQ(SettingsError("pgs", {{"omega", "abc"}}),
            "pgs.omega = abc: must be a finite number in decimal notation");
  // strtod would take these; a user typing them means something else or made a typo.
  for (const char* text : {"0x1", " 1", "1 ", "1e", ".", "+", "1.2.3", "infinity", "0x1p0"})
    EXPECT_EQ(SettingsError("pgs", {{"omega", text}}),
              std::string("pgs.omega = ") + text + ": must be a finite number in decimal notation")
        << text;
  for (const char* text : {"1", "1.", ".5", "+1.5", "1e0", "1.5E-1", "-0.0e+0"})
    EXPECT_EQ(SettingsError("pgs", {{"omega", text}}).find("decimal"), std::string::npos) << text;
  EXPECT_EQ(SettingsError("pgs", {{"nncg", "0.5"}}),
            "pgs.nncg = 0.5: must be an integer in [0, 1]");
  EXPECT_EQ(SettingsError("apgd", {{"friction_model", "x"}}),
            "apgd.friction_model = x: must be one of coulomb ccp");
  EXPECT_EQ(SettingsError("pj", {{"foo", "1"}}), "pj.foo: unknown setting (known: omega)");
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
  EXPECT_TRUE(ParseKeyValues("").empty());
  // An empty item is refused, not dropped: it is a typo of something else.
  for (const char* text : {"a=1,,b=2", "a=1,", ",a=1", "a=1;;b=2", ","}) {
    try {
      ParseKeyValues(text);
      ADD_FAILURE() << text << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is empty"), std::string::npos) << e.what();
    }
  }
}

// A valid value of `spec` other than its default (its next choice, or a number inside its range).
std::optional<double> OtherValue(const SettingSpec& spec) {
  const double d = spec.default_value;
  if (!spec.choices.empty()) {
    if (spec.choices.size() < 2) return std::nullopt;
    return std::fmod(d + 1.0, static_cast<double>(spec.choices.size()));
  }
  const auto valid = [&](double x) {
    if (x == d || !std::isfinite(x)) return false;
    if (spec.integer && x != std::floor(x)) return false;
    if (spec.min_open ? !(x > spec.min) : !(x >= spec.min)) return false;
    if (spec.max_open ? !(x < spec.max) : !(x <= spec.max)) return false;
    return true;
  };
  for (double x : {d + 1.0, d - 1.0, d * 0.5, d * 2.0, 0.5 * (spec.min + spec.max),
                   spec.min + 0.25 * (spec.max - spec.min)})
    if (valid(x)) return x;
  return std::nullopt;
}

// Every built-in solver's settings come from one declaration, its SettingsTable: the defaults
// read back from the struct as listed, and each setting given another value reaches the member
// the table binds (a name bound to the wrong member, or a member never read, fails here).
TEST(SettingsTable, EveryBuiltInSettingReadsBack) {
  int entries = 0, checked = 0;
  for (const SolverEntry& e : Solvers()) {
    if (e.name.rfind("test-", 0) == 0) continue;  // plug-ins of this test binary
    ASSERT_TRUE(e.read_back) << e.name << ": no settings table (SolverEntry::read_back)";
    ++entries;
    const Settings defaults = Settings::Parse(e.name, e.settings, {});
    std::map<std::string, double> want;
    for (const SettingSpec& spec : e.settings) want[spec.name] = spec.default_value;
    EXPECT_EQ(e.read_back(defaults), want) << e.name << " defaults";
    for (const SettingSpec& spec : e.settings) {
      const std::optional<double> x = OtherValue(spec);
      if (!x) continue;
      const std::string text =
          spec.choices.empty() ? fmt::format("{}", *x) : spec.choices[static_cast<int>(*x)];
      const Settings s = Settings::Parse(e.name, e.settings, {{spec.name, text}});
      std::map<std::string, double> changed = want;
      changed[spec.name] = *x;
      EXPECT_EQ(e.read_back(s), changed) << e.name << "." << spec.name << " = " << text;
      ++checked;
    }
  }
  std::printf("%d solvers, %d settings read back with a value other than their default\n", entries,
              checked);
  EXPECT_GE(entries, 17);
}

// The table's pieces: a flag is [0, 1] integer, a choice its enumerators' names, the defaults
// the struct's initializers (or the defaults given to the table).
TEST(SettingsTable, SpecsFollowTheStruct) {
  struct S {
    double x = 0.25;
    int n = 3;
    bool on = true;
    Color c = Color::kBlue;
  };
  SettingsTable<S> t(S{.n = 7});
  t.Real(&S::x, "x", {.min = 0.0, .max = 1.0, .max_open = true}, "a real")
      .Int(&S::n, "n", {.min = 1, .max = 10}, "an integer")
      .Flag(&S::on, "on", "a flag")
      .Choice<kColors>(&S::c, "c", "a colour");
  ASSERT_EQ(t.Specs().size(), 4u);
  EXPECT_EQ(t.Specs()[0].default_value, 0.25);
  EXPECT_TRUE(t.Specs()[0].max_open);
  EXPECT_EQ(t.Specs()[1].default_value, 7.0);
  EXPECT_TRUE(t.Specs()[1].integer);
  EXPECT_EQ(t.Specs()[2].default_value, 1.0);
  EXPECT_EQ(t.Specs()[2].max, 1.0);
  EXPECT_EQ(t.Specs()[3].choices, (std::vector<std::string>{"red", "green", "blue"}));
  EXPECT_EQ(t.Specs()[3].default_value, 2.0);
  const Settings s = Settings::Parse("t", t.Specs(), {{"x", "0.5"}, {"on", "0"}, {"c", "red"}});
  const S v = t.From(s);
  EXPECT_EQ(v.x, 0.5);
  EXPECT_EQ(v.n, 7);
  EXPECT_FALSE(v.on);
  EXPECT_EQ(v.c, Color::kRed);
  testing::ExpectError([&] { Settings::Parse("t", t.Specs(), {{"x", "1"}}); }, {"t.x = 1"});
}

}  // namespace
}  // namespace ncp
