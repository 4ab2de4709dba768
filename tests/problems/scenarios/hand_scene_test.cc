// hand (003 §6, Fig. 2): 19 dofs (elbow, four fingers of 4 joints, a 2-joint thumb). Its frames
// are valid (the coupled joints' merged blocks agree with J), a DIP/PIP coupling row reads
// q̇_DIP − ½ q̇_PIP for any velocity, a short motion holds the coupling, the fingertips and the
// elbow on their paths, and bad couplings are one-line errors.
#include <gtest/gtest.h>

#include <random>

#include "common/error.h"
#include "harness/simulate.h"
#include "problems/model/validate.h"
#include "tests/expect_error.h"
#include "problems/scenarios/rigid/scene.h"
#include "tests/scene_support.h"

namespace ncp {
namespace {

// The DIPs kept and held by rows (eliminate=0), or eliminated (the scene's default, 003's form).
Scene Hand(bool eliminate = false) {
  const SceneEntry& e = *FindScene("hand");
  return e.build(SceneParams(e, {{"eliminate", eliminate ? "1" : "0"}}), 1);
}

TEST(HandScene, NineteenDofsAndSeventeenBilateralRows) {
  Scene sc = Hand();
  const ContactProblem p = sc.system->BuildProblem();
  EXPECT_EQ(Validate(p), "");
  EXPECT_EQ(p.num_dofs(), 19);
  // The elbow, 4 DIP/PIP couplings, 3 rows per fingertip.
  EXPECT_EQ(testing::CountConstraints(p, ConstraintType::kBilateral), 1 + 4 + 12);
  EXPECT_EQ(testing::CountConstraints(p, ConstraintType::kContact), 0);
}

TEST(HandScene, ACouplingRowIsDipRateMinusHalfPipRate) {
  Scene sc = Hand();
  physics::MultibodySystem& s = *sc.system;
  const ContactProblem p = s.BuildProblem();
  const physics::ArticulatedModel& m = *s.instances()[0].model;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  Vec v(p.num_dofs());
  for (int k = 0; k < v.size(); ++k) v[k] = u(rng);
  const Vec Jv = p.J * v;
  // The bilateral rows: the elbow's, then one per finger f (PIP = link 4 + 4f, DIP = link 5 + 4f),
  // then the fingertips'.
  std::vector<int> bilateral;
  for (const Constraint& c : p.constraints)
    if (c.type == ConstraintType::kBilateral) bilateral.push_back(c.row);
  ASSERT_EQ(bilateral.size(), 17u);
  for (int f = 0; f < 4; ++f) {
    const int pip = m.links[4 + 4 * f].v_index, dip = m.links[5 + 4 * f].v_index;
    EXPECT_NEAR(Jv[bilateral[1 + f]], v[dip] - 0.5 * v[pip], 1e-12) << f;
  }
}

TEST(HandScene, AShortMotionHoldsTheCouplingTheFingertipsAndTheElbow) {
  const SceneEntry& e = *FindScene("hand");
  SimulateOptions o = SteppingOptions("canal", 50, 120);
  double couple = 0, elbow = 0, tip = 0;
  o.after_step = [&](const physics::SteppedSystem& st) {
    const auto& s = dynamic_cast<const physics::MultibodySystem&>(st);
    couple = std::max(couple, s.JointCouplingError());
    elbow = std::max(elbow, s.PrescribedError());
    for (const physics::Coupling& c : s.couplings())
      tip = std::max(
          tip, (s.BodyPose(c.body_b) * c.frame_b.translation() - c.frame_a.translation()).norm());
  };
  const SimulateResult r = Simulate(e, {{"eliminate", "0"}}, 1, o);
  ASSERT_EQ(r.steps.size(), 120u);
  EXPECT_LT(couple, 1e-9);  // linear in q: held to the solve's accuracy
  EXPECT_LT(elbow, 1e-9);
  EXPECT_LT(tip, 5e-5);  // the step's drift only (4.5 µm over the protocol's 2 s)
}

// 003's form: each DIP's dof folded into its PIP's (v = S z): 15 dofs, no coupling rows, the
// bodies' Jacobians J_b S (Validate checks them against J S), and the same motion as the rows'.
TEST(HandScene, TheEliminatedDipsGiveFifteenDofsAndTheSameMotion) {
  Scene sc = Hand(true);
  const ContactProblem p = sc.system->BuildProblem();
  EXPECT_EQ(Validate(p), "");
  EXPECT_EQ(p.num_dofs(), 15);
  EXPECT_EQ(sc.system->num_dofs(), 15);
  EXPECT_EQ(testing::CountConstraints(p, ConstraintType::kBilateral), 1 + 12);
  const SceneEntry& e = *FindScene("hand");
  std::vector<Eigen::VectorXd> q[2];
  for (int form = 0; form < 2; ++form) {
    SimulateOptions o = SteppingOptions("canal", 50, 60);
    o.after_step = [&](const physics::SteppedSystem& st) {
      q[form].push_back(dynamic_cast<const physics::MultibodySystem&>(st).instances()[0].q);
    };
    Simulate(e, {{"eliminate", form == 1 ? "1" : "0"}}, 1, o);
  }
  ASSERT_EQ(q[0].size(), 60u);
  ASSERT_EQ(q[1].size(), 60u);
  for (int k = 0; k < 60; ++k) EXPECT_LT((q[0][k] - q[1][k]).cwiseAbs().maxCoeff(), 1e-9) << k;
  EXPECT_EQ(sc.system->JointCouplingError(), 0.0);
}

TEST(HandScene, BadJointCouplingsAreOneLineErrors) {
  Scene sc = Hand();
  physics::MultibodySystem& s = *sc.system;
  testing::ExpectError([&] { s.CoupleJoints(0, 4, 400, 0.5); },
                       {"joint coupling 4: link_b = 400: must be in [0, 20)"});
  testing::ExpectError(
      [&] { s.CoupleJoints(0, 1, 5, 0.5); },
      {"joint coupling 4: link_a = 1 ('palm'): its joint must be revolute or prismatic"});
  testing::ExpectError([&] { s.CoupleJoints(0, 4, 4, 0.5); },
                       {"joint coupling 4: link_b = 4: must differ from link_a"});
  testing::ExpectError([&] { s.CoupleJoints(0, 4, 5, NAN); },
                       {"joint coupling 4: ratio = nan: must be finite"});
  testing::ExpectError([&] { s.PrescribeJoint(0, 0, [](double) { return 0.0; }); },
                       {"prescribed joint 1: link 0 ('forearm'): already prescribed"});
  s.CoupleJoints(0, 5, 3, 1.0);  // the index DIP drives its MCP: a chain through the PIP's
  testing::ExpectError([&] { s.EliminateJointCouplings(true); },
                       {"joint coupling 4: link_a = 5: is itself coupled", "cannot be eliminated"});
}

}  // namespace
}  // namespace ncp
