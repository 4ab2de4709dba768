// Every scene: recorded problems are valid (J equals the product of its structure blocks to
// 1e-12, A SPD, sizes), the reference solution is accurate, and generation is deterministic.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/simulate.h"
#include "common/error.h"
#include "problems/model/validate.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

struct SceneCase {
  const char* scene;
  const char* params;
  double reference_tol;  // 0: no bound (ill-conditioned scenes, see the closing report)
};

// Small sizes so the whole family runs in seconds.
const SceneCase kCases[] = {{"laikago_drop", "robots=2", 1e-8},
                            {"sliding_cubes", "cubes=9", 1e-8},
                            {"vertical_stacks", "stacks=2", 1e-8},
                            {"oblique_stacks", "units=1", 0},
                            {"card_houses", "houses=1,levels=2", 0},
                            {"stir", "spheres=8", 0},
                            {"soft_mat", "size=0.25", 0},
                            {"fem_beam", "size=0.5,pieces=4", 0},
                            {"cable", "links=40,bodies_per_subsystem=4", 0},
                            {"pouring", "particles=9", 0},
                            {"klann", "", 1e-8}};

SimulateResult Record(const SceneCase& c, std::uint64_t seed) {
  SimulateOptions o;
  o.steps = 60;
  o.every = 20;
  o.iters = 100;
  o.quiet = true;
  const SceneEntry& scene = *FindScene(c.scene);
  UseSceneReferences(scene, o);  // as `generate`
  return Simulate(scene, ParseKeyValues(c.params), seed, o);
}

class SceneRecording : public ::testing::TestWithParam<SceneCase> {};

TEST_P(SceneRecording, RecordedProblemsAreValidWithStructure) {
  const SimulateResult r = Record(GetParam(), 3);
  ASSERT_EQ(r.recorded.size(), 3u);
  for (const ContactProblem& p : r.recorded) {
    ValidateOptions vo;
    vo.structure_tol = 1e-12;
    EXPECT_EQ(Validate(p, vo), "") << p.meta.name;
    EXPECT_FALSE(p.structure.empty());
    EXPECT_GT(p.num_contacts(), 0) << p.meta.name;
    ASSERT_TRUE(p.reference.has_value());
    // The reference is the most accurate of the reference solvers: never worse than the
    // per-step solve, and exact enough to compare solvers on the easy scenes.
    // (The reference stops at res004 1e-10, so below that either may be ahead.)
    EXPECT_LE(p.reference->res004, std::max(1e-10, p.meta.params.at("step_solver_res004")))
        << p.meta.name;
    if (GetParam().reference_tol > 0) {
      EXPECT_LE(p.reference->res004, GetParam().reference_tol)
          << p.meta.name << " reference by " << p.reference->solver;
    }
  }
}

TEST_P(SceneRecording, SameSeedGivesIdenticalProblems) {
  const SimulateResult a = Record(GetParam(), 5), b = Record(GetParam(), 5);
  ASSERT_EQ(a.recorded.size(), b.recorded.size());
  for (std::size_t k = 0; k < a.recorded.size(); ++k) {
    const ContactProblem &p = a.recorded[k], &q = b.recorded[k];
    EXPECT_EQ(Eigen::MatrixXd(p.A), Eigen::MatrixXd(q.A));
    EXPECT_EQ(Eigen::MatrixXd(p.J), Eigen::MatrixXd(q.J));
    EXPECT_EQ(p.b, q.b);
    EXPECT_EQ(p.e, q.e);
  }
}

INSTANTIATE_TEST_SUITE_P(AllScenes, SceneRecording, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.scene); });

TEST(Scenes, UnknownParameterIsAnError) {
  EXPECT_THROW(SceneParams(*FindScene("stir"), {{"nosuch", "1"}}), std::runtime_error);
  EXPECT_THROW(SceneParams(*FindScene("stir"), {{"spheres", "x"}}), std::runtime_error);
}

// A scene asked for as a generator says it is a scene (it read "unknown; did you mean 'stir'?").
TEST(Scenes, ASceneIsNotFoundAsAGenerator) {
  try {
    FindScenario("stir");
    ADD_FAILURE() << "a scene found as a scenario";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'stir': a scene, not a generator"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ncp
