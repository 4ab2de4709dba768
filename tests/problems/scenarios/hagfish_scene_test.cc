// hagfish (003 §6, Fig. 3): 100 alternating Z-revolute / XY-universal joints, 150 dofs; coiled
// past one turn in its plane, the tail passes through the body and the spline search reports
// self-contacts, each one frictionless unilateral row whose J v is the normal velocity of the
// two material points (checked against central differences of the forward kinematics).
#include <gtest/gtest.h>

#include <random>

#include "common/error.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {
namespace {

using physics::MultibodySystem;

TEST(HagfishScene, HasAHundredJointsAndAPdRowPerJoint) {
  const SceneEntry& e = *FindScene("hagfish");
  Scene sc = e.build(SceneParams(e, {}), 1);
  const ContactProblem p = sc.system->BuildProblem();
  EXPECT_EQ(p.num_dofs(), 150);
  int soft = 0;
  for (const Constraint& c : p.constraints) soft += c.type == ConstraintType::kSoft;
  EXPECT_EQ(soft, 150);
  EXPECT_TRUE(sc.system->spline_contacts().empty());  // straight: nothing touches
  EXPECT_EQ(sc.system->spline_tubes().at(0).nodes.size(), 101u);
}

TEST(HagfishScene, ABadSplineBodyIsAOneLineError) {
  const SceneEntry& e = *FindScene("hagfish");
  Scene sc = e.build(SceneParams(e, {}), 1);
  physics::SplineBody b;
  b.body = {0, 1};
  b.local = {physics::Vec3::Zero(), physics::Vec3::Zero()};
  b.radius = {0.01, -0.01};
  try {
    sc.system->AddSplineBody(b);
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_STREQ(err.what(), "spline body: radius = -0.01: must be positive and finite");
  }
  b.radius = {0.01, 0.01};
  b.body = {0, 100000};
  EXPECT_THROW(sc.system->AddSplineBody(b), Error);
  b.body = {0, 1};
  b.local.pop_back();
  EXPECT_THROW(sc.system->AddSplineBody(b), Error);
}

TEST(HagfishScene, SelfContactRowsAreTheMaterialPointsNormalVelocity) {
  const SceneEntry& e = *FindScene("hagfish");
  Scene sc = e.build(SceneParams(e, {}), 1);
  MultibodySystem& s = *sc.system;
  physics::Instance& in = s.instances()[0];
  for (const physics::Link& l : in.model->links)  // 1.25 turns in the plane: the tail cuts in
    if (l.axis.z() == 1.0) in.q[l.q_index] = 1.25 * 2 * M_PI / 50;
  const Eigen::VectorXd q0 = in.q;
  std::vector<physics::ContactPoint> points;
  const ContactProblem p = s.BuildProblem(&points);
  const std::vector<physics::SplineContact> contacts = s.spline_contacts();
  ASSERT_FALSE(contacts.empty());
  // The contact points report them after the (no) geom contacts, as self-contacts of body 0.
  ASSERT_EQ(points.size(), contacts.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    EXPECT_EQ(points[k].spline_body, 0);
    EXPECT_EQ(points[k].gap, contacts[k].gap);
  }
  // The spline rows come first (the scene has no geoms), in the order of the contacts.
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::VectorXd v(p.num_dofs());
  for (int k = 0; k < v.size(); ++k) v[k] = n(rng);
  const Vec Jv = p.J * v;
  // Material points of each contact's position on its two segments' bodies, at q0.
  std::vector<physics::Pose> pose0;
  for (int b = 0; b < s.num_bodies(); ++b) pose0.push_back(s.BodyPose(b));
  const std::vector<int>& body = s.spline_bodies().at(0).body;  // segment k moves with body[k]
  const double h = 1e-7;
  auto positions = [&](double t, std::vector<physics::Pose>& poses) {
    in.q = q0 + t * v;
    s.BuildProblem();
    poses.clear();
    for (int b = 0; b < s.num_bodies(); ++b) poses.push_back(s.BodyPose(b));
  };
  std::vector<physics::Pose> plus, minus;
  positions(h, plus);
  positions(-h, minus);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const physics::SplineContact& c = contacts[k];
    ASSERT_EQ(p.constraints[k].type, ConstraintType::kUnilateral);
    double rel = 0;
    for (const auto& [seg, sign] : {std::pair{c.seg_a, -1.0}, std::pair{c.seg_b, 1.0}}) {
      const int b = body[seg];
      const physics::Vec3 local = pose0[b].inverse() * c.position;
      rel += sign * c.normal.dot((plus[b] * local - minus[b] * local) / (2 * h));
    }
    EXPECT_NEAR(Jv[p.constraints[k].row], rel, 1e-6 * (1 + std::abs(rel))) << k;
  }
}

}  // namespace
}  // namespace ncp
