// Solvers added from outside the suite: RegisterSolver, the static-initializer macro and the
// plug-in loader's errors.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>

#include "common/registry.h"
#include "harness/plugin.h"
#include "solvers/registry.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

// Returns λ = 0 and v = 0 of the right sizes: enough to be run and evaluated.
class ZeroSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings&, const WarmStart*) override {
    v_ = Vec::Zero(p.num_dofs());
    lambda_ = Vec::Zero(p.num_rows());
    return Status::kRunning;
  }
  Status Iterate() override { return Status::kRunning; }
  void Current(Vec& v, Vec& lambda) const override { v = v_, lambda = lambda_; }

 private:
  Vec v_, lambda_;
};

}  // namespace
}  // namespace ncp

NCP_REGISTER_SOLVER(test_zero, {"test-zero-static",
                                "zero iterate (registered statically)",
                                {},
                                ncp::LocalUse::kNone,
                                [] { return std::make_unique<ncp::ZeroSolver>(); }})

namespace ncp {
namespace {

TEST(PluginRegistry, StaticRegistrationIsListedAfterTheBuiltIns) {
  const std::vector<SolverEntry>& all = Solvers();
  EXPECT_EQ(all.front().name, "pgs");
  EXPECT_EQ(FindSolver("test-zero-static").description, "zero iterate (registered statically)");
  EXPECT_EQ(TakeRegistrationError(), "");
}

TEST(PluginRegistry, RegisteredSolverIsFoundAndMade) {
  const SettingSpec k{"k", 1.0, 0.0, 2.0, false, false, false, {}, "a setting"};
  RegisterSolver({"test-zero-dynamic", "zero iterate", {k}, LocalUse::kAsStored, [] {
                    return std::make_unique<ZeroSolver>();
                  }});
  const SolverEntry& e = FindSolver("test-zero-dynamic");
  EXPECT_TRUE(e.supports_local());
  EXPECT_NE(e.make(), nullptr);
  EXPECT_EQ(Settings::Parse(e.name, e.settings, {{"k", "1.5"}}).Get("k"), 1.5);
}

TEST(PluginRegistry, BadRegistrationsNameTheRule) {
  const auto make = [] { return std::make_unique<ZeroSolver>(); };
  testing::ExpectError(
      [&] {
        RegisterSolver({"pgs", "", {}, LocalUse::kNone, make});
      },
      {"solver 'pgs'", "already registered"});
  testing::ExpectError(
      [&] {
        RegisterSolver({"", "", {}, LocalUse::kNone, make});
      },
      {"solver name = ''", "must be letters, digits, '_', '-' and ':' (not empty)"});
  testing::ExpectError(
      [&] {
        RegisterSolver({"no-factory", "", {}, LocalUse::kNone, nullptr});
      },
      {"solver 'no-factory'", "make = null"});
  EXPECT_FALSE(RegisterSolverAtLoad({"pgs", "", {}, LocalUse::kNone, make}));
  EXPECT_NE(TakeRegistrationError().find("already registered"), std::string::npos);
  EXPECT_EQ(TakeRegistrationError(), "");
}

// A plug-in's entry is checked as it registers: a name that cannot be a job key's part or a
// --set prefix, settings whose default the parser would refuse, or a choice index past the list
// (which indexed out of bounds when the row was written).
TEST(PluginRegistry, EntriesThatCannotBeRunOrRecordedAreRefused) {
  const auto make = [] { return std::make_unique<ZeroSolver>(); };
  const auto with = [&](const char* name, std::vector<SettingSpec> settings) {
    return SolverEntry{name, "", std::move(settings), LocalUse::kNone, make};
  };
  const auto spec = [](const char* name, double def, double lo, double hi) {
    return SettingSpec{name, def, lo, hi, false, false, false, {}, ""};
  };
  for (const char* name : {"a,b", "my.solver", "x|y", " sp ace\n", "k=v"})
    testing::ExpectError([&] { RegisterSolver(with(name, {})); },
                         {"solver name = '", "must be letters, digits, '_', '-' and ':'"});
  testing::ExpectError([&] { RegisterSolver(with("t-range", {spec("k", 10, 0, 1)})); },
                       {"solver 't-range': setting 'k': default = 10: must be a finite number "
                        "in [0, 1]"});
  testing::ExpectError([&] { RegisterSolver(with("t-nan", {spec("k", NAN, 0, 1)})); },
                       {"setting 'k': default = nan: must be a finite number"});
  testing::ExpectError([&] { RegisterSolver(with("t-bounds", {spec("k", 3, 5, 1)})); },
                       {"setting 'k': bounds [5, 1]: must be numbers with min <= max"});
  testing::ExpectError(
      [&] {
        RegisterSolver(with("t-twice", {spec("k", 0, 0, 1), spec("k", 0, 0, 1)}));
      },
      {"solver 't-twice': setting 'k': declared twice"});
  testing::ExpectError([&] { RegisterSolver(with("t-name", {spec("a=b;c", 0, 0, 1)})); },
                       {"setting 'a=b;c': its name must be letters, digits, '_' and '-'"});
  SettingSpec choice{"mode", 5, 0, 0, false, false, false, {"a", "b"}, ""};
  testing::ExpectError([&] { RegisterSolver(with("t-choice", {choice})); },
                       {"setting 'mode': default = 5: must be the index of one of its 2 choices"});
  choice.default_value = 0, choice.choices = {"a", "a"};
  testing::ExpectError([&] { RegisterSolver(with("t-choices", {choice})); },
                       {"setting 'mode': choice 'a': given twice"});
  for (const char* name : {"t-range", "t-nan", "t-bounds", "t-twice", "t-name", "t-choice"})
    EXPECT_EQ(FindOrNull(Solvers(), name), nullptr) << name;
}

// Every built-in entry passes the same check (they are not registered through it).
TEST(PluginRegistry, EveryBuiltInEntryPassesTheCheck) {
  for (const SolverEntry& e : Solvers()) EXPECT_NO_THROW(CheckSolverEntry(e)) << e.name;
}

TEST(PluginRegistry, NothingRegistersWhileFrozenAndAFailedLoadLeavesNothing) {
  const auto make = [] { return std::make_unique<ZeroSolver>(); };
  {
    const RegistryFreeze frozen;
    testing::ExpectError(
        [&] {
          RegisterSolver({"test-frozen", "", {}, LocalUse::kNone, make});
        },
        {"solver 'test-frozen': registered while jobs run"});
  }
  const std::size_t before = Solvers().size();
  RegisterSolver({"test-forgotten", "", {}, LocalUse::kNone, make});
  ForgetSolversFrom(before);
  EXPECT_EQ(Solvers().size(), before);
  EXPECT_EQ(FindOrNull(Solvers(), "test-forgotten"), nullptr);
}

TEST(PluginRegistry, MissingPluginIsBadInput) {
  testing::ExpectError([] { LoadPlugin("/nonexistent/my_solver.so"); },
                       {"--plugin = /nonexistent/my_solver.so", "cannot load"});
  // dlopen blocked on a FIFO until a writer came.
  const std::string fifo = ::testing::TempDir() + "plugin_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  testing::ExpectError([&] { LoadPlugin(fifo); },
                       {"--plugin = " + fifo + ": is a FIFO: a plug-in is a shared library file"});
  std::remove(fifo.c_str());
}

}  // namespace
}  // namespace ncp
