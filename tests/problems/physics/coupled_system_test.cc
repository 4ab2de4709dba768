// A skeleton two-way coupled to FEM flesh (coupled_system.h) and prescribed joints
// (MultibodySystem::PrescribeJoint), on cases with known answers: an attachment row is zero for
// any motion that carries the node with its bone; a body pushed with flesh attached accelerates
// as one body of the summed mass (F/(m_b + m_f)), which it would not if the flesh did not act
// back on it; a prescribed pendulum lands on its path every step. The all-bilateral problems are
// solved exactly by the dense KKT system, tolerances 1e-9 (round-off of a few solves).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <random>

#include "common/error.h"
#include "problems/model/validate.h"
#include "tests/expect_error.h"
#include "problems/physics/coupled_system.h"
#include "problems/physics/fem/tet_mesh.h"

namespace ncp::physics {
namespace {

// v of an all-bilateral problem: A v = b + Jᵀλ, J v + e = 0.
Vec SolveBilateral(const ContactProblem& p) {
  for (const Constraint& c : p.constraints) EXPECT_EQ(c.type, ConstraintType::kBilateral);
  const Eigen::MatrixXd A = Eigen::MatrixXd(p.A), J = Eigen::MatrixXd(p.J);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
  const Eigen::MatrixXd AiJt = ldlt.solve(J.transpose());
  const Vec Aib = ldlt.solve(p.b);
  const Vec lambda = (J * AiJt).ldlt().solve(-p.e - J * Aib);
  return Aib + AiJt * lambda;
}

constexpr double kBodyMass = 2.0;
const FemMaterial kFlesh{1e5, 0.3, 1000};

// A free 10 cm box body (no geoms) at `at`, and a 4 cm rubber cube of 2 × 2 × 2 cells beside it,
// every node of the cube attached to the body. No gravity, no obstacles.
std::unique_ptr<CoupledSystem> BodyWithFlesh(const Pose& at) {
  StepOptions opt;
  opt.dt = 0.01;
  opt.gravity = Vec3::Zero();
  auto skeleton = std::make_unique<MultibodySystem>(opt);
  auto model = std::make_shared<ArticulatedModel>(
      MakeFreeBody("body", kBodyMass, Mat3::Identity() * 0.01, {}));
  Eigen::VectorXd q = model->NeutralConfiguration();
  q.head<3>() = at.translation();
  const Eigen::Quaterniond r(at.linear());
  q.segment<4>(3) << r.w(), r.x(), r.y(), r.z();
  skeleton->AddInstance(model, q, Eigen::VectorXd::Zero(6));
  skeleton->Finalize();
  auto flesh = std::make_unique<DeformableSystem>(opt);
  flesh->AddBody(
      BoxTetMesh(at.translation() + Vec3(0.05, -0.02, -0.02), Vec3::Constant(0.04), {2, 2, 2}),
      kFlesh, 0.5);
  auto cs = std::make_unique<CoupledSystem>(std::move(skeleton), std::move(flesh), opt);
  for (int n = 0; n < cs->flesh().num_nodes(); ++n) cs->Attach(0, n);
  return cs;
}

Pose TurnedPose() {
  Pose at = Pose::Identity();
  at.linear() = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  at.translation() = Vec3(0.3, -0.1, 0.5);
  return at;
}

TEST(CoupledSystem, AnAttachmentRowIsZeroWhenTheNodeMovesWithItsBone) {
  auto cs = BodyWithFlesh(TurnedPose());
  const ContactProblem p = cs->BuildProblem();
  EXPECT_EQ(Validate(p), "");  // the rows' body blocks agree with J
  const int nodes = cs->flesh().num_nodes();
  ASSERT_EQ(p.num_rows(), 3 * nodes);
  EXPECT_LT(p.e.cwiseAbs().maxCoeff(), 1e-12);  // attached where they are (round-off of T⁻¹)
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  const Pose& T = cs->skeleton().BodyPose(0);
  for (int trial = 0; trial < 5; ++trial) {
    Vec v(p.num_dofs());
    Vec3 lin(u(rng), u(rng), u(rng)), ang(u(rng), u(rng), u(rng));  // the body's twist (body frame)
    v.head<3>() = lin, v.segment<3>(3) = ang;
    for (int n = 0; n < nodes; ++n) {
      const Vec3 r = T.inverse() * cs->flesh().positions().segment<3>(3 * n);
      v.segment<3>(6 + 3 * n) = T.linear() * (lin + ang.cross(r));
    }
    EXPECT_LT((p.J * v).cwiseAbs().maxCoeff(), 1e-12) << trial;
    v[6] += 1.0;  // node 0 leaves its bone along x: its first row sees exactly that
    EXPECT_NEAR((p.J * v)[0], 1.0, 1e-12);
  }
}

TEST(CoupledSystem, APushedBodyCarriesItsFleshAsOneMass) {
  auto cs = BodyWithFlesh(Pose::Identity());
  // Along x, through the body's centre and the cube's: a translation, no turn.
  const Vec3 force(3.0, 0.0, 0.0);
  cs->skeleton().instances()[0].push = force;
  // The flesh's mass: 1ᵀ A_xx 1 (at rest the stiffness and damping terms vanish on a translation).
  double flesh_mass = 0;
  {
    const ContactProblem p = cs->BuildProblem();
    const Eigen::MatrixXd A =
        Eigen::MatrixXd(p.A).bottomRightCorner(p.num_dofs() - 6, p.num_dofs() - 6);
    for (int k = 0; k < A.rows(); k += 3)
      for (int c = 0; c < A.cols(); c += 3) flesh_mass += A(k, c);
  }
  ASSERT_NEAR(flesh_mass, kFlesh.density * 0.04 * 0.04 * 0.04, 1e-9);
  const double dt = cs->options().dt;
  for (int step = 1; step <= 3; ++step) {
    const Vec v = SolveBilateral(cs->BuildProblem());
    cs->Advance(v);
    // One rigid motion: the body's and every node's velocity is F t / (m_b + m_f); without the
    // flesh acting back the body would reach F t / m_b.
    const Vec3 expect = force * step * dt / (kBodyMass + flesh_mass);
    EXPECT_LT((v.head<3>() - expect).norm(), 1e-9 * expect.norm()) << step;
    EXPECT_LT(v.segment<3>(3).norm(), 1e-9) << step;
    for (int n = 0; n < cs->flesh().num_nodes(); ++n)
      EXPECT_LT((v.segment<3>(6 + 3 * n) - expect).norm(), 1e-9 * expect.norm()) << n;
  }
  EXPECT_LT(cs->AttachmentError(), 1e-9);
}

// A 30 cm link on a revolute joint about y at the world's origin, its angle prescribed.
TEST(CoupledSystem, APrescribedJointLandsOnItsPathEveryStep) {
  StepOptions opt;
  opt.dt = 0.01;
  MultibodySystem s(opt);
  auto model = std::make_shared<ArticulatedModel>();
  Link l;
  l.name = "link";
  l.joint = JointType::kRevolute;
  l.axis = Vec3::UnitY();
  l.mass = 1.0;
  l.com = Vec3(0.15, 0, 0);
  l.inertia = Mat3::Identity() * 0.01;
  model->links.push_back(l);
  model->Finalize();
  PdGains pd{.kp = 10, .kd = 1, .target = Eigen::VectorXd::Zero(1)};
  s.AddInstance(model, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), pd);
  s.Finalize();
  auto path = [](double t) { return 0.8 * std::sin(3 * t); };
  EXPECT_EQ(s.PrescribeJoint(0, 0, path), 0);
  for (int step = 1; step <= 20; ++step) {
    const ContactProblem p = s.BuildProblem();
    ASSERT_EQ(p.num_constraints(), 1);  // the prescription; the joint's PD row is dropped
    s.Advance(SolveBilateral(p));
    EXPECT_NEAR(s.instances()[0].q[0], path(step * opt.dt), 1e-12) << step;
    EXPECT_LT(s.PrescribedError(), 1e-12);
  }
}

TEST(CoupledSystem, BadAttachmentsAndPrescriptionsAreOneLineErrors) {
  auto cs = BodyWithFlesh(Pose::Identity());
  const int n = cs->num_attachments();
  ncp::testing::ExpectError(
      [&] { cs->Attach(1, 0); },
      {fmt::format("attachment {}: body = 1: must be a skeleton body in [0, 1)", n)});
  ncp::testing::ExpectError(
      [&] { cs->Attach(0, 1000); },
      {fmt::format("attachment {}: node = 1000: must be a flesh node in [0, 27)", n)});
  ncp::testing::ExpectError([&] { cs->Attach(0, 3); },
                            {fmt::format("attachment {}: node = 3: already attached", n)});
  MultibodySystem& s = cs->skeleton();
  ncp::testing::ExpectError([&] { s.PrescribeJoint(1, 0, [](double) { return 0.0; }); },
                            {"prescribed joint 0: instance = 1: must be in [0, 1)"});
  ncp::testing::ExpectError(
      [&] { s.PrescribeJoint(0, 0, [](double) { return 0.0; }); },
      {"prescribed joint 0: link 0 ('body'): its joint must be revolute or prismatic"});
  StepOptions theta;
  theta.theta = 0.5;
  EXPECT_THROW(cs->set_options(theta), Error);  // the flesh's scheme has no θ
}

}  // namespace
}  // namespace ncp::physics
