// One lookup for every registry: an unknown name is one error line with the closest known name.
#include "common/registry.h"

#include <gtest/gtest.h>

#include "harness/reproduce/protocol.h"
#include "problems/scenarios/rigid/scene.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/registry.h"

namespace ncp {
namespace {

struct Named {
  std::string name;
  int value = 0;
};
struct Keyed {  // a registry keyed by ids
  std::string id;
};

std::string ErrorOf(const auto& find) {
  try {
    find();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Registry, FindsByNameOrId) {
  const std::vector<Named> named = {{"pgs", 1}, {"apgd", 2}};
  EXPECT_EQ(FindByName(named, "apgd", "solver").value, 2);
  EXPECT_EQ(FindOrNull(named, "pgs"), &named[0]);
  EXPECT_EQ(FindOrNull(named, "pg"), nullptr);
  const std::vector<Keyed> keyed = {{"004-table2"}};
  EXPECT_EQ(&FindByName(keyed, "004-table2", "reproduce"), &keyed[0]);
}

TEST(Registry, UnknownNameSuggestsTheClosestAndListsTheKnown) {
  const std::vector<Named> named = {{"pgs"}, {"apgd"}};
  EXPECT_EQ(ErrorOf([&] { FindByName(named, "pgss", "solver"); }),
            "solver 'pgss': unknown; did you mean 'pgs'? (known: pgs, apgd)");
  EXPECT_EQ(ErrorOf([&] { FindByName(named, "banana", "solver"); }),
            "solver 'banana': unknown (known: pgs, apgd)");
  EXPECT_EQ(ErrorOf([&] { FindByName(named, "al", "thing", {"all"}); }),
            "thing 'al': unknown; did you mean 'all'? (known: pgs, apgd, all)");
  EXPECT_EQ(ErrorOf([] { FindByName(std::vector<Named>{}, "x", "thing"); }),
            "thing 'x': unknown (known: none)");
}

TEST(Registry, TheSuitesRegistriesUseIt) {
  EXPECT_EQ(ErrorOf([] { FindSolver("apgdd"); })
                .rfind("solver 'apgdd': unknown; did you mean "
                       "'apgd'? (known: pgs, pj, apgd, ",
                       0),
            0u);
  // A scene's name is a valid scenario (generate takes both).
  const std::string scenario = ErrorOf([] { FindScenario("randm"); });
  EXPECT_EQ(scenario.rfind("scenario 'randm': unknown; did you mean 'random'? (known: random, ", 0),
            0u)
      << scenario;
  EXPECT_NE(scenario.find(", laikago_drop"), std::string::npos) << scenario;
  EXPECT_EQ(&FindScenario("random"), &Scenarios()[0]);
  EXPECT_EQ(FindScene("nosuch"), nullptr);
  ASSERT_NE(FindScene("laikago_drop"), nullptr);
  EXPECT_EQ(FindScene("laikago_drop")->name, "laikago_drop");
  const std::string protocol = ErrorOf([] { FindProtocol("004-tabel2"); });
  EXPECT_EQ(
      protocol.rfind("reproduce '004-tabel2': unknown; did you mean '004-table2'? (known: ", 0), 0u)
      << protocol;
  EXPECT_EQ(protocol.substr(protocol.size() - 6), ", all)") << protocol;
}

}  // namespace
}  // namespace ncp
