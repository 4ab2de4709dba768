// The klann scene (003 §6, Figs. 1d, 5c): the DOF and rows it is built from (one shaft, 4 more
// joints and 2 two-row loop closures per leg, feet in contact where they reach the floor), the
// structure layer a tree, and over a simulated second (stepped by the scene's stepper) every
// rocker stays on its frame pivot while the crank turns and the walker walks on its feet.
// Bilateral rows held at the velocity level (e = erp · error / dt) drift by the step's
// second-order term, ∝ (dt ω)²: the second-long run takes steps short enough for 1e-8 m, and a
// separate test checks that law at the scene's own step.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "common/error.h"
#include "harness/simulate.h"
#include "tests/scene_support.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

constexpr int kLegs = 6;

using testing::CountConstraints;

std::vector<physics::Pose> Poses(const physics::MultibodySystem& s) {
  std::vector<physics::Pose> poses;
  for (int b = 0; b < s.num_bodies(); ++b) poses.push_back(s.BodyPose(b));
  return poses;
}

// Largest distance between a loop closure's two pin points (the scene's own couplings with
// translation rows; the motor's row is a rotation) at the given body poses.
double WorstClosure(const physics::MultibodySystem& s, const std::vector<physics::Pose>& poses) {
  double worst = 0.0;
  for (const physics::Coupling& c : s.couplings()) {
    if (!(c.rows & 1u)) continue;
    const physics::Vec3 a =
        c.body_a < 0 ? c.frame_a.translation() : poses[c.body_a] * c.frame_a.translation();
    worst = std::max(worst, (poses[c.body_b] * c.frame_b.translation() - a).norm());
  }
  return worst;
}

int LinkNamed(const physics::MultibodySystem& s, const std::string& name) {
  const auto& links = s.instances()[0].model->links;
  for (std::size_t l = 0; l < links.size(); ++l)
    if (links[l].name == name) return s.instances()[0].first_body + static_cast<int>(l);
  return -1;
}

// The linkage's crank angle (counterclockwise in the x–z plane: about −y) of the shaft.
double CrankAngle(const physics::Pose& shaft) {
  const Eigen::Matrix3d R = shaft.linear();
  return -std::atan2(R(0, 2), R(0, 0));
}

struct KlannRun {
  SimulateResult result;
  Scene scene;  // built from the same parameters: the couplings' frames and the initial poses
  double seconds = 0.0;
};

KlannRun SimulateOneSecond(const std::string& params) {
  const SceneEntry& entry = *FindScene("klann");
  SimulateOptions o = SteppingOptions(entry.stepper, entry.stepper_iters);
  o.step_tol = 1e-13;
  const std::map<std::string, double> p = SceneParams(entry, ParseKeyValues(params));
  o.steps = static_cast<int>(std::lround(1.0 / p.at("dt")));
  KlannRun r;
  const auto t0 = std::chrono::steady_clock::now();
  r.result = Simulate(entry, ParseKeyValues(params), 1, o);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.scene = entry.build(r.result.params, 1);
  return r;
}

TEST(KlannScene, TreeOfRevoluteJointsWithTwoPinsPerLegBuiltAtRest) {
  const SceneEntry& entry = *FindScene("klann");
  for (const int chassis : {1, 0}) {
    SCOPED_TRACE(chassis);
    Scene sc = entry.build(SceneParams(entry, {{"chassis", std::to_string(chassis)}}), 1);
    const physics::MultibodySystem& s = *sc.system;
    const ContactProblem p = sc.system->BuildProblem();
    // The chassis' two slides, the shaft, and per leg rod, lower rocker, leg, upper rocker: with
    // the shared crank joint, 5 revolute joints a leg.
    EXPECT_EQ(p.num_dofs(), 2 * chassis + 1 + kLegs * 4);
    ASSERT_EQ(s.instances().size(), 1u);
    int revolute = 0;
    for (const physics::Link& l : s.instances()[0].model->links)
      revolute += l.joint == physics::JointType::kRevolute;
    EXPECT_EQ(revolute, 1 + kLegs * 4);
    EXPECT_EQ(CountConstraints(p, ConstraintType::kBilateral),
              kLegs * 2 * 2);                                  // 12 pins, x and z rows
    EXPECT_EQ(CountConstraints(p, ConstraintType::kSoft), 1);  // the motor (PD servo)
    EXPECT_EQ(CountConstraints(p, ConstraintType::kUnilateral), 0);
    ASSERT_EQ(p.structure.subsystems.size(), 1u);
    EXPECT_TRUE(p.structure.IsTree(0));
    // Built at rest: every closure at zero.
    EXPECT_LT(WorstClosure(s, Poses(s)), 1e-12);
    for (const Constraint& c : p.constraints) {
      if (c.type == ConstraintType::kBilateral) {
        EXPECT_LT(std::abs(p.e[c.row]), 1e-10);
      }
    }
    // Contacts: exactly the feet within the margin of the floor, none below it, the lowest on
    // it (chassis = 1) or at most on it (0: the lowest point of the path is on it).
    const physics::Instance& in = s.instances()[0];
    int near = 0;
    double lowest = 1e30;
    for (std::size_t l = 0; l < in.model->links.size(); ++l)
      for (const physics::Geom& g : in.model->links[l].geoms) {
        const physics::Pose foot = s.BodyPose(in.first_body + static_cast<int>(l)) * g.local;
        const double gap = foot.translation().z() - g.shape.radius;
        lowest = std::min(lowest, gap);
        near += gap < s.options().margin;
      }
    EXPECT_GE(lowest, -1e-9);
    if (chassis == 1) {
      EXPECT_LT(lowest, 1e-9);
    }
    EXPECT_GE(near, 1);
    EXPECT_EQ(p.num_contacts(), near);
  }
  // With the speed prescribed, the motor is one more bilateral row instead.
  Scene hard = entry.build(SceneParams(entry, ParseKeyValues("motor_kp=0,motor_kd=0")), 1);
  const ContactProblem q = hard.system->BuildProblem();
  EXPECT_EQ(CountConstraints(q, ConstraintType::kBilateral), kLegs * 2 * 2 + 1);
  EXPECT_EQ(CountConstraints(q, ConstraintType::kSoft), 0);
}

TEST(KlannScene, RejectsAMotorDamperWithoutItsSpring) {
  const SceneEntry& entry = *FindScene("klann");
  EXPECT_THROW(entry.build(SceneParams(entry, ParseKeyValues("motor_kp=0,motor_kd=5")), 1), Error);
}

TEST(KlannScene, LoopClosuresHoldOverASimulatedSecond) {
  // 0.25 ms steps at 0.5 rad/s: dt ω = 1.25e-4 rad a step (the drift law: see the next test).
  const KlannRun r = SimulateOneSecond("dt=0.00025,crank_speed=0.5");
  const physics::MultibodySystem& s = *r.scene.system;
  const std::vector<physics::Pose>& poses = r.result.final_poses;
  ASSERT_EQ(static_cast<int>(poses.size()), 2 + 1 + kLegs * 4);
  for (const physics::Pose& pose : poses) {
    ASSERT_TRUE(pose.translation().allFinite());
    ASSERT_TRUE(pose.linear().allFinite());
  }
  const double worst = WorstClosure(s, poses);
  const double angle = CrankAngle(poses[LinkNamed(s, "shaft")]);
  const int chassis = LinkNamed(s, "chassis");
  const double walked = poses[chassis].translation().x() - s.BodyPose(chassis).translation().x();
  double worst_step = 0.0, deepest = 0.0;
  int touching_steps = 0;
  for (const StepStats& st : r.result.steps) {
    worst_step = std::max(worst_step, st.res004);
    deepest = std::max(deepest, st.max_penetration);
    touching_steps += st.contacts > 0;
  }
  std::printf(
      "klann after 1 s (dt 0.25 ms, 0.5 rad/s): pins off their pivots by at most %.3g m; "
      "crank turned %.4g rad; chassis walked %.4g m; deepest foot %.3g mm; worst step "
      "res004 %.2g; %.2f s\n",
      worst, angle, walked, deepest * 1e3, worst_step, r.seconds);
  EXPECT_LT(worst, 1e-8);
  EXPECT_GT(angle, 0.4) << "the crank did not turn";
  // About 0.08 m per radian of crank along the flat of the stride; a foot slipping walks less.
  EXPECT_GT(std::abs(walked), 0.02) << "the walker did not walk";
  EXPECT_LT(deepest, 1e-3);
  EXPECT_LT(worst_step, 1e-10);
  EXPECT_EQ(touching_steps, static_cast<int>(r.result.steps.size())) << "the feet left the floor";
}

TEST(KlannScene, ClosureDriftShrinksWithTheSquareOfTheStep) {
  // At the scene's own step (1/240 s) and half of it, 1 rad/s: the closures drift by the step's
  // second-order term, not by the solve (res004 ~ 1e-15), so halving dt quarters the error.
  const KlannRun coarse = SimulateOneSecond("");
  const KlannRun fine = SimulateOneSecond("dt=0.00208333333333333333");
  const double e1 = WorstClosure(*coarse.scene.system, coarse.result.final_poses);
  const double e2 = WorstClosure(*fine.scene.system, fine.result.final_poses);
  std::printf("klann after 1 s at 1 rad/s: pins off by %.3g m (dt 1/240 s), %.3g m (1/480 s)\n", e1,
              e2);
  EXPECT_LT(e1, 1e-5);
  EXPECT_GT(e1 / e2, 3.0);
  EXPECT_LT(e1 / e2, 5.0);
}

}  // namespace
}  // namespace ncp
