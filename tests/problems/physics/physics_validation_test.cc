// Physics validation of the time stepping with contacts: a box resting on a plane for 10 s, and a
// box on an incline that sticks when μ > tan θ and otherwise slides with g (sin θ − μ cos θ).
#include <gtest/gtest.h>

#include <cmath>

#include "harness/metrics/evaluator.h"
#include "harness/runner.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {
namespace {

using namespace physics;

// Advances one step, solving each problem with pgs to res004 ≤ 1e-11.
void Step(MultibodySystem& s) {
  const ContactProblem p = s.BuildProblem();
  const SolverEntry& e = FindSolver("pgs");
  const SolverJob job{&e, Settings::Parse("pgs", e.settings, {})};
  RunOptions opt;
  opt.budget.iters = 5000;
  opt.budget.tol = 1e-11;
  WarmStart sol;
  const RunRecord r = RunOne(p, Evaluator(p), job, opt, nullptr, 0, &sol);
  ASSERT_NE(r.status, Outcome::kDiverged);
  s.Advance(sol.v);
}

// A 0.2 m box (2 kg) on the plane z = 0 tilted by `incline` about y, resting on a face.
MultibodySystem BoxOnIncline(double incline, double mu) {
  MultibodySystem s;
  AddFloor(s, mu, incline);
  const Vec3 half = Vec3::Constant(0.1);
  const Eigen::AngleAxisd tilt(incline, Vec3::UnitY());
  Pose pose(tilt);
  pose.translation() = tilt * Vec3(0, 0, 0.1 - 1e-4);
  AddBox(s, 2.0, half, mu, pose);
  s.Finalize();
  return s;
}

TEST(PhysicsValidation, BoxRestsOnAPlaneFor10sWithoutDrift) {
  MultibodySystem s = BoxOnIncline(0.0, 0.5);
  const Vec3 p0 = s.instances()[0].q.head<3>();
  for (int k = 0; k < 2400; ++k) Step(s);
  const Eigen::VectorXd& q = s.instances()[0].q;
  const Vec3 p1 = q.head<3>();
  EXPECT_LT((p1 - p0).head<2>().norm(), 1e-6) << "horizontal drift";
  EXPECT_NEAR(p1.z(), 0.1 - s.options().slop, 1e-5) << "rests at the allowed penetration";
  EXPECT_LT(s.instances()[0].v.norm(), 1e-6);
  EXPECT_LT(std::abs(Eigen::Quaterniond(q[3], q[4], q[5], q[6])
                         .angularDistance(Eigen::Quaterniond::Identity())),
            1e-6);
  std::printf("box at rest after 10 s: drift %.2e m, height %.6f m, speed %.2e m/s\n",
              (p1 - p0).head<2>().norm(), p1.z(), s.instances()[0].v.norm());
}

// Velocity along the slope (down-hill positive) after 1 s.
double SlideSpeedAfter1s(double incline, double mu) {
  MultibodySystem s = BoxOnIncline(incline, mu);
  for (int k = 0; k < 240; ++k) Step(s);
  const Eigen::VectorXd& q = s.instances()[0].q;
  const Mat3 R = Eigen::Quaterniond(q[3], q[4], q[5], q[6]).toRotationMatrix();
  const Vec3 v_world = R * s.instances()[0].v.head<3>();
  // Gravity projected on the plane with normal R_y(θ) e_z points along R_y(θ) e_x.
  const Vec3 downhill = Eigen::AngleAxisd(incline, Vec3::UnitY()) * Vec3::UnitX();
  return v_world.dot(downhill);
}

TEST(PhysicsValidation, BoxOnInclineSticksWhenFrictionSuffices) {
  const double theta = 0.3;  // tan θ = 0.309
  EXPECT_LT(std::abs(SlideSpeedAfter1s(theta, 0.35)), 1e-6);
}

TEST(PhysicsValidation, BoxOnInclineSlidesWithCoulombAcceleration) {
  const double theta = 0.5, mu = 0.3, g = 9.81;
  const double expected = g * (std::sin(theta) - mu * std::cos(theta));
  const double measured = SlideSpeedAfter1s(theta, mu) / 1.0;
  EXPECT_NEAR(measured, expected, 0.01 * expected);
  std::printf("incline %.2f rad, mu %.2f: acceleration %.4f m/s², expected %.4f (%.3f%%)\n", theta,
              mu, measured, expected, 100 * (measured / expected - 1));
}

}  // namespace
}  // namespace ncp
