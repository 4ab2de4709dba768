// Boxes on PD-driven prismatic joints among deformable bodies (002 §V-C4's gripper fingers): a
// node's contact rows with one give u = F (v_node − v_frame − ṡ a) for any velocity; the drive
// alone settles a vertical slide where k_p (s* − s) balances its weight; bad drives are refused.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "problems/model/validate.h"
#include "problems/physics/fem/deformable_system.h"

namespace ncp::physics {
namespace {

// A joint frame at `origin` moving with `linear` (no rotation).
Trajectory MovingFrame(const Vec3& origin, const Vec3& linear) {
  return [origin, linear](double t) {
    KinematicState s;
    s.pose.translation() = origin + t * linear;
    s.linear = linear;
    return s;
  };
}

// A 4 cm rubber cube with a 2 cm-thick finger plate against its +x face (1 mm gap), sliding
// along −x toward it, its frame moving up.
DeformableSystem CubeAndFinger() {
  DeformableSystem s;
  s.AddBody(BoxTetMesh(Vec3(-0.02, -0.02, 0.0), Vec3::Constant(0.04), {3, 3, 3}), {1e5, 0.3, 1000},
            0.8);
  PrismaticDrive d;
  d.frame = MovingFrame(Vec3(0.0, 0.0, 0.02), Vec3(0, 0, 0.1));
  d.axis = Vec3(-1, 0, 0);
  d.target = [](double) { return -0.031; };  // the plate's centre at x = 0.031
  d.kp = 1e3;
  d.kd = 10;
  s.AddSliderBox(Vec3(0.01, 0.03, 0.03), 0.2, 0.5, d);
  return s;
}

TEST(DeformableSliderBox, ContactRowsGiveTheRelativeVelocityOfNodeAndFinger) {
  DeformableSystem s = CubeAndFinger();
  EXPECT_DOUBLE_EQ(s.SliderPosition(0), -0.031);  // target(0)
  ASSERT_EQ(s.num_dofs(), 3 * s.num_nodes() + 1);
  std::vector<ContactPoint> contacts;
  const ContactProblem p = s.BuildProblem(&contacts);
  EXPECT_EQ(Validate(p), "");
  // Any velocity: one without structure.
  const Vec v = Vec::LinSpaced(s.num_dofs(), 0.0, 1.0).array().sin() * 2.0 - 0.7;
  const double rate = v[3 * s.num_nodes()];
  const Vec Jv = p.J * v;
  int on_finger = 0;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const ContactPoint& cp = contacts[k];
    if (cp.geom_a != 0) continue;  // the only obstacle: slider 0 after no others
    const int row = p.constraints[k].row;
    const Mat3 F = ContactFrame(cp.normal);
    // The finger's point moves with the frame (0, 0, 0.1) and the slide ṡ along −x.
    const Vec3 point = Vec3(0, 0, 0.1) + rate * Vec3(-1, 0, 0);
    const Vec3 u_expected = F * (v.segment<3>(3 * cp.geom_b) - point);
    // J v + e: e carries the frame's motion and the gap's stabilization on the normal row.
    const Vec3 Jv_only = F * v.segment<3>(3 * cp.geom_b) - F * (rate * Vec3(-1, 0, 0));
    EXPECT_LT((Jv.segment<3>(row) - Jv_only).norm(), 1e-12) << "contact " << k;
    EXPECT_LT((p.e.segment<2>(row + 1) - (u_expected - Jv_only).tail<2>()).norm(), 1e-12);
    EXPECT_NEAR(cp.normal.x(), -1.0, 1e-12);  // from the finger toward the cube
    ++on_finger;
  }
  EXPECT_EQ(on_finger, 16);  // the cube's +x face: 4 × 4 nodes
}

// No contact (the body far away): implicit Euler on m s̈ = k_p (s* − s) − k_d ṡ + m g·a settles
// at s = s* + m g·a / k_p, whatever h.
TEST(DeformableSliderBox, TheDriveBalancesTheWeightOfAVerticalSlide) {
  DeformableSystem s;
  s.AddBody(BoxTetMesh(Vec3(5, 5, 5), Vec3::Constant(0.04), {1, 1, 1}), {1e5, 0.3, 1000}, 0.5);
  PrismaticDrive d;
  d.frame = MovingFrame(Vec3::Zero(), Vec3::Zero());
  d.axis = Vec3(0, 0, 2);  // normalized by AddSliderBox
  d.target = [](double t) { return t < 0.5 ? 0.0 : 0.05; };
  const double m = 0.3, kp = 500.0;
  d.kp = kp;
  d.kd = 2 * std::sqrt(kp * m);
  s.AddSliderBox(Vec3::Constant(0.01), m, 0.5, d);
  const double g = s.options().gravity.z();
  for (int k = 0; k < static_cast<int>(3.0 / s.options().dt); ++k) {
    const ContactProblem p = s.BuildProblem();
    ASSERT_EQ(p.num_contacts(), 0);
    // No contact: v̂ = A⁻¹ b on the slide's own row.
    Vec v = Vec::Zero(s.num_dofs());
    const int off = 3 * s.num_nodes();
    v[off] = p.b[off] / p.A.coeff(off, off);
    s.Advance(v);
  }
  EXPECT_NEAR(s.SliderPosition(0), 0.05 + m * g / kp, 1e-6);
  EXPECT_NEAR(s.SliderRate(0), 0.0, 1e-6);
}

TEST(DeformableSliderBox, BadDrivesAreRefused) {
  DeformableSystem s;
  PrismaticDrive d;
  d.frame = MovingFrame(Vec3::Zero(), Vec3::Zero());
  d.target = [](double) { return 0.0; };
  d.kp = 1.0;
  EXPECT_THROW(s.AddSliderBox(Vec3(0.1, 0, 0.1), 1.0, 0.5, d), Error);
  EXPECT_THROW(s.AddSliderBox(Vec3::Constant(0.1), 0.0, 0.5, d), Error);
  EXPECT_THROW(s.AddSliderBox(Vec3::Constant(0.1), 1.0, NAN, d), Error);
  PrismaticDrive bad = d;
  bad.kp = -1;
  EXPECT_THROW(s.AddSliderBox(Vec3::Constant(0.1), 1.0, 0.5, bad), Error);
  bad = d;
  bad.axis = Vec3::Zero();
  EXPECT_THROW(s.AddSliderBox(Vec3::Constant(0.1), 1.0, 0.5, bad), Error);
  bad = d;
  bad.target = [](double) { return NAN; };
  EXPECT_THROW(s.AddSliderBox(Vec3::Constant(0.1), 1.0, 0.5, bad), Error);
  bad = d;
  bad.frame = nullptr;
  EXPECT_THROW(s.AddSliderBox(Vec3::Constant(0.1), 1.0, 0.5, bad), Error);
  EXPECT_EQ(s.num_slider_boxes(), 0);
  EXPECT_THROW(s.SliderPosition(0), Error);
}

}  // namespace
}  // namespace ncp::physics
