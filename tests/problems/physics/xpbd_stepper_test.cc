// The small-steps PBD stepper (002 §V-E2) against hand-derived answers: a free fall is symplectic
// Euler over the substeps, a body hanging on a soft coupling settles at the extension m g / K, a
// box sliding on the floor decelerates at μ g and stops, a box dragged at constant speed pulls
// with μ m g, positional static friction holds a box below the friction angle, and systems it
// cannot step are refused by name.
#include "problems/physics/xpbd_stepper.h"

#include <gtest/gtest.h>

#include <cmath>

#include "problems/physics/dynamics/articulated_model.h"
#include "problems/scenarios/rigid/scene.h"
#include "tests/expect_error.h"

namespace ncp::physics {
namespace {

constexpr double kGravity = 9.81, kBoxMass = 2.0;
const Vec3 kHalf(0.05, 0.05, 0.05);

std::shared_ptr<ArticulatedModel> Box(double mu) {
  return std::make_shared<ArticulatedModel>(
      MakeFreeBody("box", kBoxMass, BoxInertia(kBoxMass, kHalf), {BoxGeom(kHalf, mu)}));
}

Pose At(const Vec3& x) {
  Pose T = Pose::Identity();
  T.translation() = x;
  return T;
}

TEST(XpbdStepper, FreeFallIsSymplecticEulerOverTheSubsteps) {
  StepOptions so;
  so.dt = 0.01;
  MultibodySystem s(so);
  s.AddInstance(Box(0.5), PoseToQ(At(Vec3(0, 0, 1))), Eigen::VectorXd::Zero(6));
  s.Finalize();
  const int n = 10;
  XpbdStepper pbd(s, {.substeps = n});
  pbd.Step(s);
  const double h = so.dt / n;
  // v_k = −k g h, z = 1 + Σ_k h v_k = 1 − g h² n (n + 1) / 2.
  EXPECT_NEAR(s.instances()[0].q[2], 1.0 - kGravity * h * h * n * (n + 1) / 2, 1e-14);
  EXPECT_NEAR(s.instances()[0].v[2], -kGravity * so.dt, 1e-13);
  EXPECT_NEAR(s.time(), so.dt, 1e-15);
}

TEST(XpbdStepper, HangingOnASoftCouplingSettlesAtTheWeightOverTheStiffness) {
  StepOptions so;
  so.dt = 0.01;
  MultibodySystem s(so);
  s.AddInstance(Box(0.5), PoseToQ(At(Vec3(0, 0, 1))), Eigen::VectorXd::Zero(6));
  Coupling c;
  c.body_b = 0;
  c.frame_a = At(Vec3(0, 0, 1.05));  // the world frame at the box's top face
  c.frame_b = At(Vec3(0, 0, 0.05));
  const double k = 2000.0;
  c.stiffness << k, k, k, 50.0, 50.0, 50.0;
  c.damping = 0.05 * c.stiffness;  // τ = 50 ms: settles within a few seconds
  s.AddCoupling(c);
  s.Finalize();
  XpbdStepper pbd(s, {.substeps = 20});
  for (int step = 0; step < 400; ++step) pbd.Step(s);
  // e_z = −m g / K: the frames' offset at rest; the box does not turn.
  const Eigen::VectorXd& q = s.instances()[0].q;
  EXPECT_NEAR(q[2] - 1.0, -kBoxMass * kGravity / k, 1e-6);
  EXPECT_NEAR(q[0], 0.0, 1e-12);
  EXPECT_NEAR(std::abs(q[3]), 1.0, 1e-12);
  EXPECT_LT(s.instances()[0].v.norm(), 1e-6);
}

TEST(XpbdStepper, ASlidingBoxDeceleratesAtMuGAndStops) {
  StepOptions so;
  so.dt = 0.005;
  MultibodySystem s(so);
  ncp::AddFloor(s, 0.4);
  const double mu = 0.4, v0 = 1.0;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[0] = v0;
  s.AddInstance(Box(mu), PoseToQ(At(Vec3(0, 0, kHalf.z()))), v);
  s.Finalize();
  XpbdStepper pbd(s, {.substeps = 20, .friction = XpbdFriction::kVelocity});
  double deepest = 0.0;
  const int steps = 40;  // 0.2 s: v = v0 − μ g t = 0.215 m/s, still sliding
  for (int k = 0; k < steps; ++k) deepest = std::max(deepest, pbd.Step(s).max_penetration);
  const double t = steps * so.dt;
  // The x velocity of the body frame (the box stays upright: body x = world x).
  EXPECT_NEAR(s.instances()[0].v[0], v0 - mu * kGravity * t, 0.02 * v0);
  EXPECT_NEAR(s.instances()[0].q[0], v0 * t - 0.5 * mu * kGravity * t * t, 0.01 * v0 * t);
  for (int k = 0; k < 60; ++k) deepest = std::max(deepest, pbd.Step(s).max_penetration);
  // Stopped (0.1% of v0: one Gauss–Seidel pass a substep leaves a creep) at x = v0² / (2 μ g),
  // resting on the floor within the system's slop.
  EXPECT_LT(std::abs(s.instances()[0].v[0]), 1e-3 * v0);
  EXPECT_NEAR(s.instances()[0].q[0], v0 * v0 / (2 * mu * kGravity),
              0.02 * v0 * v0 / (2 * mu * kGravity));
  EXPECT_LE(deepest, so.slop + 1e-4);
}

// Positional static friction ([68]): a box on a slope below its friction angle stays put; above
// it, it slides down. tan 15° = 0.27 < μ = 0.4 < tan 30° = 0.58.
TEST(XpbdStepper, PositionalStaticFrictionHoldsABoxBelowTheFrictionAngle) {
  for (const double degrees : {15.0, 30.0}) {
    StepOptions so;
    so.dt = 0.005;
    MultibodySystem s(so);
    const double mu = 0.4, slope = degrees * M_PI / 180;
    ncp::AddFloor(s, mu, slope);
    // Resting on the plane (its normal R_y(slope) ẑ), turned with it.
    Pose T(Eigen::AngleAxisd(slope, Vec3::UnitY()));
    T.translation() = T.linear() * Vec3(0, 0, kHalf.z());
    s.AddInstance(Box(mu), PoseToQ(T), Eigen::VectorXd::Zero(6));
    s.Finalize();
    XpbdStepper pbd(s, {.substeps = 20});
    for (int k = 0; k < 200; ++k) pbd.Step(s);  // 1 s
    const double moved = (s.instances()[0].q.head<3>() - T.translation()).norm();
    // Held, it moves less than 2 mm (settling into the slop included). Sliding, it travels
    // ½ g (sin θ − μ cos θ) t² = 0.75 m in 1 s, here within 30%: the dynamic friction of the
    // positional form, capped by λ_n alone, brakes ~12% short on a box (the velocity form's
    // tests check μ g to 2%).
    const double sliding = 0.5 * kGravity * (std::sin(slope) - mu * std::cos(slope));
    if (degrees < 20)
      EXPECT_LT(moved, 2e-3) << degrees;
    else
      EXPECT_NEAR(moved, sliding, 0.3 * sliding) << degrees;
  }
}

// A shipped scene of free boxes: sliding_cubes' cubes (initial speeds up to 2 m/s, μ 0.3) all
// come to rest within 1 s (each stops by v / (μ g) ≤ 0.68 s; 0.78 s with the positional form's
// short braking), never sinking past the slop by more than a millimetre.
TEST(XpbdStepper, StepsTheSlidingCubesToRest) {
  const SceneEntry* e = FindScene("sliding_cubes");
  ASSERT_NE(e, nullptr);
  Scene sc = e->build(SceneParams(*e, {{"cubes", "9"}}), 1);
  MultibodySystem& s = *sc.system;
  XpbdStepper pbd(s, {.substeps = 10});
  double deepest = 0.0;
  const int steps = static_cast<int>(std::lround(1.0 / s.options().dt));
  for (int k = 0; k < steps; ++k) {
    if (sc.before_step) sc.before_step(s);
    deepest = std::max(deepest, pbd.Step(s).max_penetration);
  }
  for (const Instance& in : s.instances()) EXPECT_LT(in.v.norm(), 1e-2);
  EXPECT_LT(deepest, s.options().slop + 1e-3);
}

TEST(XpbdStepper, RefusesWhatItCannotStepByName) {
  MultibodySystem s;
  ArticulatedModel arm;
  arm.name = "arm";
  Link base;
  base.name = "base";
  base.mass = 1.0;
  base.inertia = Mat3::Identity();
  Link tip = base;
  tip.name = "tip";
  tip.parent = 0;
  tip.joint = JointType::kRevolute;
  arm.links = {base, tip};
  arm.Finalize();
  s.AddInstance(std::make_shared<ArticulatedModel>(arm), arm.NeutralConfiguration(),
                Eigen::VectorXd::Zero(arm.nv));
  s.Finalize();
  testing::ExpectError([&] { XpbdStepper pbd(s, {}); }, {"instance 0 ('arm') has 2 links"});
  MultibodySystem one;
  one.AddInstance(Box(0.5), PoseToQ(At(Vec3(0, 0, 1))), Eigen::VectorXd::Zero(6));
  one.Finalize();
  testing::ExpectError([&] { XpbdStepper pbd(one, {.substeps = 0}); },
                       {"pbd substeps (--pbd) = 0"});
}

// A box dragged over the floor at constant speed by a soft coupling to a moving world frame:
// once it slides steadily the coupling's spring carries the friction, μ m g.
TEST(XpbdStepper, ADraggedBoxPullsItsCouplingWithMuMG) {
  StepOptions so;
  so.dt = 0.001;
  MultibodySystem s(so);
  const double mu = 0.3, speed = 0.2, k = 500.0;
  ncp::AddFloor(s, mu);
  s.AddInstance(Box(mu), PoseToQ(At(Vec3(0, 0, kHalf.z()))), Eigen::VectorXd::Zero(6));
  Coupling c;
  c.body_b = 0;
  c.frame_a = At(Vec3(kHalf.x(), 0, kHalf.z()));  // at the box's front face centre
  c.frame_b = At(Vec3(kHalf.x(), 0, 0));
  c.stiffness << k, k, k, 20.0, 20.0, 20.0;
  c.damping = 0.13 * c.stiffness;  // about critical along the pull: 2 √(k m) / k
  c.anchor_linear = Vec3(speed, 0, 0);
  const int grip = s.AddCoupling(c);
  s.Finalize();
  XpbdStepper pbd(s, {.substeps = 50, .friction = XpbdFriction::kVelocity});
  for (int step = 0; step < 2000; ++step) pbd.Step(s);
  const CouplingRows r = EvaluateCoupling(s.couplings()[grip], Pose::Identity(), s.BodyPose(0));
  EXPECT_NEAR(k * r.error[0], -mu * kBoxMass * kGravity, 0.02 * mu * kBoxMass * kGravity);
  EXPECT_NEAR(s.instances()[0].v[0], speed, 0.01 * speed);
}

}  // namespace
}  // namespace ncp::physics
