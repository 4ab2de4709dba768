// Free rigid boxes among deformable bodies (002 §V-C6's dynamic object): a node's contact rows
// with a box give u = F (v_node − v_point) for any velocity; a rubber block on a rigid box on the
// floor comes to rest with the box on the floor; soft_gripper's fingers lift their block.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "common/error.h"
#include "harness/runner.h"
#include "harness/simulate.h"
#include "problems/model/validate.h"
#include "problems/physics/fem/deformable_system.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp::physics {
namespace {

// Steps `s` with `solver` (`iters` iterations a step).
void StepWith(DeformableSystem& s, int steps, const char* solver, int iters) {
  const std::vector<SolverJob> jobs = MakeSolverJobs({solver}, {});
  RunOptions ro;
  ro.budget.iters = iters;
  for (int k = 0; k < steps; ++k) {
    const ContactProblem p = s.BuildProblem();
    WarmStart sol;
    RunOne(p, Evaluator(p), jobs[0], ro, nullptr, 0, &sol);
    ASSERT_EQ(sol.v.size(), s.num_dofs());
    s.Advance(sol.v);
  }
}

// A 4 cm rubber cube on a 10 cm rigid box (1 kg) standing on the floor, the box turned 30° about
// z and 1 mm up so that its bottom corners and the cube's bottom nodes are in contact range.
DeformableSystem CubeOnBox() {
  DeformableSystem s;
  Pose box = Pose::Identity();
  box.linear() = Eigen::AngleAxisd(M_PI / 6, Vec3::UnitZ()).toRotationMatrix();
  box.translation() = Vec3(0, 0, 0.05 + 0.001);
  s.AddBody(BoxTetMesh(Vec3(-0.02, -0.02, 0.1 + 0.0015), Vec3::Constant(0.04), {3, 3, 3}),
            {1e5, 0.3, 1000}, 0.8);
  s.AddPlane(Vec3::UnitZ(), 0.0, 0.8);
  s.AddRigidBox(Vec3::Constant(0.05), 1.0, 0.8, box);
  return s;
}

TEST(DeformableRigidBox, ContactRowsGiveTheRelativeVelocityOfNodeAndBoxPoint) {
  DeformableSystem s = CubeOnBox();
  std::vector<ContactPoint> contacts;
  const ContactProblem p = s.BuildProblem(&contacts);
  EXPECT_EQ(Validate(p), "");
  ASSERT_EQ(s.num_dofs(), 3 * s.num_nodes() + 6);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  Vec v(s.num_dofs());
  for (int i = 0; i < v.size(); ++i) v[i] = u(rng);
  const Vec3 lin = v.segment<3>(3 * s.num_nodes()), ang = v.segment<3>(3 * s.num_nodes() + 3);
  const Vec3 c = s.RigidBoxState(0).pose.translation();
  const Vec Jv = p.J * v;
  int on_box = 0, on_floor = 0;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const ContactPoint& cp = contacts[k];
    const int row = p.constraints[k].row;
    const Mat3 F = ContactFrame(cp.normal);
    const Vec3 point = lin + ang.cross(cp.position - c);
    Vec3 expected;
    if (cp.geom_b >= 0) {  // a cube node against the box (geom_a = 1 obstacle + box 0)
      EXPECT_EQ(cp.geom_a, 1);
      expected = F * (v.segment<3>(3 * cp.geom_b) - point);
      ++on_box;
    } else {  // a box corner on the floor
      EXPECT_EQ(cp.geom_b, -1);
      expected = F * point;
      ++on_floor;
    }
    EXPECT_LT((Jv.segment<3>(row) - expected).norm(), 1e-12) << "contact " << k;
  }
  EXPECT_EQ(on_box, 16);  // the cube's bottom face: 4 × 4 nodes
  EXPECT_EQ(on_floor, 4);
}

TEST(DeformableRigidBox, CubeOnABoxComesToRestWithTheBoxOnTheFloor) {
  DeformableSystem s = CubeOnBox();
  StepWith(s, 60, "admm-full", 200);  // 1 s
  const KinematicState b = s.RigidBoxState(0);
  double lowest = 1e9;
  for (int i = 0; i < s.num_nodes(); ++i) lowest = std::min(lowest, s.positions()[3 * i + 2]);
  std::printf("box centre z %.5f m, speed %.2e m/s, spin %.2e rad/s; cube's lowest node %.5f m\n",
              b.pose.translation().z(), b.linear.norm(), b.angular.norm(), lowest);
  // Each contact rests a slop (0.2 mm) deep: the box in the floor, the cube in the box.
  EXPECT_NEAR(b.pose.translation().z(), 0.05, 3e-4);
  EXPECT_LT(b.linear.norm(), 1e-3);
  EXPECT_LT(b.angular.norm(), 1e-2);
  EXPECT_NEAR(lowest, 0.1, 5e-4);  // the cube on the box top face
}

TEST(DeformableRigidBox, BadRigidBoxesAreRefused) {
  DeformableSystem s;
  EXPECT_THROW(s.AddRigidBox(Vec3(0.1, 0, 0.1), 1.0, 0.5, Pose::Identity()), Error);
  EXPECT_THROW(s.AddRigidBox(Vec3::Constant(0.1), -1.0, 0.5, Pose::Identity()), Error);
  EXPECT_THROW(s.AddRigidBox(Vec3::Constant(0.1), 1.0, NAN, Pose::Identity()), Error);
  EXPECT_THROW(s.RigidBoxState(0), Error);
}

// soft_gripper at half size, stepped as `generate` steps it (its stepper): closing,
// squeezing and lifting (1.5 s) raise the block by most of the actuator's 3 cm, held by friction.
TEST(DeformableRigidBox, SoftGripperLiftsItsBlock) {
  const SceneEntry& e = *FindScene("soft_gripper");
  SimulateOptions sim = SteppingOptions(e.stepper, e.stepper_iters, 90);
  // The block's dofs are the last six: its height changes by h v_z a step.
  double rise = 0.0;
  sim.on_step = [&rise](const ContactProblem& p, const WarmStart& sol) {
    rise += p.meta.dt * sol.v[p.num_dofs() - 4];
  };
  const SimulateResult r = Simulate(e, {{"size", "0.5"}}, 1, sim);
  std::printf("soft_gripper size 0.5, %zu steps of %s: block raised by %.4f m (actuator 0.03 m)\n",
              r.steps.size(), e.stepper.c_str(), rise);
  EXPECT_GT(rise, 0.02);
  EXPECT_LT(rise, 0.031);
}

}  // namespace
}  // namespace ncp::physics
