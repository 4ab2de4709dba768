// fclib round trip for every scene: export to fclib global (soft rows folded into A and b,
// unilateral rows as μ = 0 contacts with zero tangent rows, bilateral rows as G), re-import, and
// get A, b, J, e, μ and the constraint types bitwise equal to the folded problem (the problem
// itself when it has no soft rows). One recorded frame per rigid scene, one random dataset.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "harness/simulate.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_io.h"
#include "problems/model/fold_soft.h"
#include "problems/scenarios/rigid/scene.h"
#include "problems/scenarios/scenarios.h"
#include "solvers/settings.h"
#include "tests/bitwise.h"
#include "tests/cli_support.h"
#include "tests/temp_dir_test_base.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

using testing::ExpectSameSparse;
using testing::ExpectSameVec;
using testing::SameBits;

// Small sizes (those of scenes_test) so every scene records a frame with contacts in seconds.
const std::map<std::string, std::string> kSmall = {{"laikago_drop", "robots=2"},
                                                   {"sliding_cubes", "cubes=9"},
                                                   {"vertical_stacks", "stacks=2"},
                                                   {"oblique_stacks", "units=1"},
                                                   {"card_houses", "houses=1,levels=2"},
                                                   {"stir", "spheres=8"},
                                                   {"soft_mat", "size=0.25"},
                                                   {"soft_ball", "size=0.4"},
                                                   {"soft_gripper", "size=0.4"},
                                                   {"cable", "links=40,bodies_per_subsystem=4"},
                                                   {"fem_beam", "size=0.5,pieces=4"}};

class FclibRoundTrip : public testing::TempDirTest {
 protected:
  FclibRoundTrip() : TempDirTest("ncpbench_fclib_roundtrip") {}

  // Exports, re-imports and compares with the fold; returns the number of soft rows folded.
  int Check(const ContactProblem& p, const std::string& label) {
    SCOPED_TRACE(label);
    const std::string path = Path(label + ".hdf5");
    WriteFclibGlobal(path, p);
    const ContactProblem back = ReadFclib(path);
    const ContactProblem expect = FoldSoftRows(p).problem;
    ExpectSameSparse(expect.A, back.A, "A");
    ExpectSameVec(expect.b, back.b, "b");
    ExpectSameSparse(expect.J, back.J, "J");
    ExpectSameVec(expect.e, back.e, "e");
    EXPECT_EQ(back.num_constraints(), expect.num_constraints());
    for (int i = 0; i < std::min(back.num_constraints(), expect.num_constraints()); ++i) {
      EXPECT_EQ(back.constraints[i].type, expect.constraints[i].type) << i;
      EXPECT_EQ(back.constraints[i].row, expect.constraints[i].row) << i;
      EXPECT_TRUE(SameBits(&back.constraints[i].mu, &expect.constraints[i].mu, 1)) << i;
    }
    int by_type[4] = {0, 0, 0, 0};
    for (const Constraint& c : p.constraints) ++by_type[static_cast<int>(c.type)];
    std::printf("%s: %d contacts, %d unilateral, %d bilateral, %d soft (folded): round trip %s\n",
                label.c_str(), by_type[0], by_type[1], by_type[2], by_type[3],
                ::testing::Test::HasFailure() ? "DIFFERS" : "bitwise identical");
    return by_type[3];
  }
};

TEST_F(FclibRoundTrip, EveryRigidSceneIsBitwiseIdentical) {
  ASSERT_FALSE(Scenes().empty());
  for (const SceneEntry& e : Scenes()) {
    SimulateOptions o;
    o.steps = 60;
    o.every = 20;
    o.iters = 50;
    o.quiet = true;
    o.reference_solvers.clear();
    const auto it = kSmall.find(e.name);
    const auto params = ParseKeyValues(it == kSmall.end() ? "" : it->second);
    // Joint-friction rows (chain) have no fclib form, and only a few solvers step them.
    const ContactProblem first = e.build(SceneParams(e, params), 1).stepped().BuildProblem();
    if (std::any_of(first.constraints.begin(), first.constraints.end(),
                    [](const Constraint& c) { return c.type == ConstraintType::kJointFriction; }))
      continue;
    const SimulateResult r = Simulate(e, params, 1, o);
    ASSERT_FALSE(r.recorded.empty()) << e.name;
    // fclib holds frictional contact problems: scenes without contacts (bridge, umbrella: springs
    // and loop closures only) have nothing to export.
    if (r.recorded.back().num_contacts() == 0) continue;
    Check(r.recorded.back(), e.name);
  }
}

TEST_F(FclibRoundTrip, RandomSceneWithEveryRowTypeIsTheFoldedProblem) {
  const auto problems = FindScenario("random").generate({}, 2, 5);
  int soft = 0;
  for (std::size_t i = 0; i < problems.size(); ++i)
    soft += Check(problems[i], fmt::format("random-{}", i));
  EXPECT_GT(soft, 0);  // the fold was exercised
}

// The command line does the same check: convert --to fclib --all --verify.
TEST(FclibRoundTripCli, ConvertVerifiesEveryProblemOfADataset) {
  const auto dir = testing::FreshDir("fclib_roundtrip_cli");
  const std::string data = (dir / "random.h5").string();
  ASSERT_EQ(testing::RunCli("generate random -n 3 --seed 4 -o " + data, dir).code, 0);
  std::filesystem::create_directories(dir / "fclib");
  const testing::CliResult r = testing::RunCli(
      "convert " + data + " " + (dir / "fclib").string() + " --to fclib --all --verify", dir);
  EXPECT_EQ(r.code, 0) << r.err;
  std::size_t n = 0;
  for (std::size_t at = r.out.find("bitwise identical"); at != std::string::npos;
       at = r.out.find("bitwise identical", at + 1))
    ++n;
  EXPECT_EQ(n, 3u) << r.out;
  // fclib has no soft rows: each problem that had some says how many were folded.
  std::size_t folded = 0;
  for (std::size_t at = r.out.find(" soft constraints folded into M and f: fclib has none)");
       at != std::string::npos;
       at = r.out.find(" soft constraints folded into M and f: fclib has none)", at + 1))
    ++folded;
  EXPECT_EQ(folded, 3u) << r.out;
  std::filesystem::remove_all(dir);
}

// A local W with entries on one side of the diagonal only came back from its fclib file as a
// symmetric matrix (the reader mirrors a stored triangle): refused, and nothing is written.
TEST(FclibRoundTripCli, AOneSidedLocalWIsRefusedNotRewritten) {
  const auto dir = testing::FreshDir("fclib_one_sided");
  ContactProblem p = testing::OneContactLocalProblem();
  p.meta.name = "upper";
  p.W.coeffRef(0, 1) = 0.25;
  p.W.coeffRef(1, 2) = -0.5;
  const std::string data = (dir / "upper.h5").string(), out = (dir / "upper.hdf5").string();
  WriteDataset(data, {p}, {});
  const testing::CliResult r = testing::RunCli("convert " + data + " " + out + " --to fclib", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(out + ": W of 'upper': stored entries on one side of the diagonal only"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove_all(dir);
}

// Folding is exact: the folded problem has the same solution, v and the hard rows of λ.
TEST(FoldSoftRows, KeepsTheSolution) {
  auto p = FindScenario("random").generate({}, 1, 9).front();
  p.guesses = {{p.reference->v, p.reference->lambda}};  // a guess goes to the kept rows too
  const FoldedProblem f = FoldSoftRows(p);
  const Vec& v = p.reference->v;
  Vec lam_f(f.kept_rows.size());
  for (std::size_t r = 0; r < f.kept_rows.size(); ++r)
    lam_f[r] = p.reference->lambda[f.kept_rows[r]];
  const Vec dyn = f.problem.A * v - f.problem.b - f.problem.J.transpose() * lam_f;
  EXPECT_LE(dyn.norm(), 1e-10 * (f.problem.A * v).norm());
  ASSERT_EQ(f.problem.guesses.size(), 1u);
  EXPECT_EQ(f.problem.guesses[0].lambda, lam_f);
  EXPECT_EQ(f.problem.guesses[0].v, v);
  const Vec lam = UnfoldMultipliers(p, f, lam_f, v);
  EXPECT_LE((lam - p.reference->lambda).norm(), 1e-10 * p.reference->lambda.norm());
}

}  // namespace
}  // namespace ncp
