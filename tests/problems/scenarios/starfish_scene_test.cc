// starfish (003 §6, Fig. 1c): a 20-joint skeleton in a coarse FEM star, 212 nodes at the
// defaults. Its frames are valid (the attachments' body blocks agree with J), a rigid motion of
// the whole starfish leaves every attachment row at zero, a short swim keeps the attachments and
// the prescribed joints while the passive joints move, and subadmm says why it cannot take the
// flesh's nodal rows.
#include <gtest/gtest.h>

#include <random>

#include "harness/simulate.h"
#include "problems/model/validate.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/registry.h"
#include "tests/scene_support.h"

namespace ncp {
namespace {

Scene Starfish() {
  const SceneEntry& e = *FindScene("starfish");
  return e.build(SceneParams(e, {}), 1);
}

TEST(StarfishScene, TwentyJointsInTwoHundredTwelveNodes) {
  Scene sc = Starfish();
  ASSERT_TRUE(sc.coupled);
  const physics::CoupledSystem& cs = *sc.coupled;
  const physics::ArticulatedModel& m = *cs.skeleton().instances()[0].model;
  int revolute = 0;
  for (const physics::Link& l : m.links) revolute += l.joint == physics::JointType::kRevolute;
  EXPECT_EQ(revolute, 20);
  EXPECT_EQ(m.nv, 26);
  EXPECT_EQ(cs.flesh().num_nodes(), 212);  // 003: 221
  EXPECT_GT(cs.num_attachments(), 40);
  const ContactProblem p = sc.stepped().BuildProblem();
  EXPECT_EQ(Validate(p), "");
  EXPECT_EQ(p.num_dofs(), 26 + 3 * 212);
  // 10 prescribed rows, 3 per attachment; the rest are floor contacts.
  EXPECT_EQ(testing::CountConstraints(p, ConstraintType::kBilateral),
            10 + 3 * cs.num_attachments());
  EXPECT_GT(testing::CountConstraints(p, ConstraintType::kContact), 50);
}

TEST(StarfishScene, ARigidMotionOfTheWholeStarfishLeavesTheAttachmentsAtZero) {
  Scene sc = Starfish();
  physics::CoupledSystem& cs = *sc.coupled;
  const ContactProblem p = cs.BuildProblem();
  const physics::Pose& disc = cs.skeleton().BodyPose(0);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  const physics::Vec3 lin(u(rng), u(rng), u(rng)), ang(u(rng), u(rng), u(rng));  // disc frame
  Vec v = Vec::Zero(p.num_dofs());
  v.head<3>() = lin, v.segment<3>(3) = ang;  // the joints still: every bone moves with the disc
  for (int n = 0; n < cs.flesh().num_nodes(); ++n) {
    const physics::Vec3 r = disc.inverse() * cs.flesh().positions().segment<3>(3 * n);
    v.segment<3>(26 + 3 * n) = disc.linear() * (lin + ang.cross(r));
  }
  const Vec u_att = (p.J * v).tail(3 * cs.num_attachments());
  EXPECT_LT(u_att.cwiseAbs().maxCoeff(), 1e-12);
}

TEST(StarfishScene, AShortSwimKeepsTheCouplingAndMovesThePassiveJoints) {
  const SceneEntry& e = *FindScene("starfish");
  SimulateOptions o = SteppingOptions("canal", 50, 40);
  double attach = 0, track = 0, passive = 0;
  o.after_step = [&](const physics::SteppedSystem& s) {
    const auto& cs = dynamic_cast<const physics::CoupledSystem&>(s);
    attach = std::max(attach, cs.AttachmentError());
    track = std::max(track, cs.skeleton().PrescribedError());
    const physics::Instance& in = cs.skeleton().instances()[0];
    for (std::size_t l = 1; l < in.model->links.size(); ++l)
      if ((l - 1) % 4 >= 2) passive = std::max(passive, std::abs(in.q[in.model->links[l].q_index]));
  };
  const SimulateResult r = Simulate(e, {}, 1, o);
  ASSERT_EQ(r.steps.size(), 40u);
  EXPECT_LT(attach, 5e-4);               // the protocol's bound (2% of the thickness)
  EXPECT_LT(track, 1e-6);                // canal solves each step to res004 ~1e-7
  EXPECT_GT(passive, 2.0 * M_PI / 180);  // driven only through the flesh
}

TEST(StarfishScene, SubadmmSaysItCannotCarryTheFleshRows) {
  const ContactProblem p = testing::FirstStep("starfish", "");
  const SolverEntry& e = FindSolver("subadmm");
  auto solver = e.make();
  EXPECT_EQ(solver->Setup(p, Settings::Parse(e.name, e.settings, {}), nullptr),
            Status::kNotApplicable);
  EXPECT_NE(solver->message().find("which has no bodies"), std::string::npos) << solver->message();
}

}  // namespace
}  // namespace ncp
