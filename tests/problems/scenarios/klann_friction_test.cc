// klann_friction (003 Fig. 5c): the hanging Klann linkage in maximal coordinates, every joint and
// pin a friction joint, turned by one bilateral motor row. Over a quarter second the shaft turns
// at the motor's speed, and the motor's torque (its row's impulse over dt) grows with the joints'
// friction, as 003 reports; the frames carry one bilateral row and the joint-friction rows only.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/simulate.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {
namespace {

constexpr double kKlannDt = 1.0 / 240;

struct Turned {
  double angle = 0.0;     // of the shaft [rad]
  double mean_tau = 0.0;  // mean |motor torque| [N·m], the start-up step left out
  int bilateral = 0, joint_friction = 0, other = 0;  // rows of the last frame's constraints
};

Turned Turn(double joint_mu, int steps) {
  SimulateOptions sim = SteppingOptions("pgs", 200, steps);
  Turned t;
  int k = 0;
  sim.on_step = [&](const ContactProblem& p, const WarmStart& s) {
    t.bilateral = t.joint_friction = t.other = 0;
    for (const Constraint& c : p.constraints) {
      if (c.type == ConstraintType::kBilateral) {
        ++t.bilateral;
        if (k > 0) t.mean_tau += std::abs(s.lambda[c.row]) / kKlannDt / (steps - 1);
      } else if (c.type == ConstraintType::kJointFriction) {
        ++t.joint_friction;
      } else if (c.type != ConstraintType::kContact) {
        ++t.other;
      }
    }
    ++k;
  };
  const SimulateResult r =
      Simulate(*FindScene("klann_friction"), {{"joint_mu", std::to_string(joint_mu)}}, 1, sim);
  const Eigen::Matrix3d R = r.final_poses.front().linear();  // the shaft, added first
  t.angle = -std::atan2(R(0, 2), R(0, 0));
  return t;
}

TEST(KlannFriction, TheShaftTurnsAndMoreJointFrictionNeedsMoreTorque) {
  const int steps = 60;  // 0.25 s at 1 rad/s
  const Turned free = Turn(0.0, steps), rough = Turn(0.4, steps);
  EXPECT_NEAR(free.angle, steps * kKlannDt * 1.0, 0.02);
  EXPECT_NEAR(rough.angle, steps * kKlannDt * 1.0, 0.02);
  EXPECT_EQ(free.bilateral, 1);
  EXPECT_EQ(free.joint_friction, 5 * (1 + 6 * 6));  // the shaft's joint, 6 per leg, 5 contacts
  EXPECT_EQ(free.other, 0);
  EXPECT_GT(rough.mean_tau, 1.5 * free.mean_tau) << free.mean_tau << " vs " << rough.mean_tau;
}

}  // namespace
}  // namespace ncp
