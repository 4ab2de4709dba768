// Solvers added from outside the suite: RegisterSolver, the static-initializer macro and the
// plug-in loader's errors.
#include <gtest/gtest.h>

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
      {"solver name = ''", "must not be empty"});
  testing::ExpectError(
      [&] {
        RegisterSolver({"no-factory", "", {}, LocalUse::kNone, nullptr});
      },
      {"solver 'no-factory'", "make = null"});
  EXPECT_FALSE(RegisterSolverAtLoad({"pgs", "", {}, LocalUse::kNone, make}));
  EXPECT_NE(TakeRegistrationError().find("already registered"), std::string::npos);
  EXPECT_EQ(TakeRegistrationError(), "");
}

TEST(PluginRegistry, MissingPluginIsBadInput) {
  testing::ExpectError([] { LoadPlugin("/nonexistent/my_solver.so"); },
                       {"--plugin = /nonexistent/my_solver.so", "cannot load"});
}

}  // namespace
}  // namespace ncp
