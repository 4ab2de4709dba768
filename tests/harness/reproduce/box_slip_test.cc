// The box slipping on ellipsoidal friction (002 §V-G, Fig. 14): the contact rows of the ellipse
// give the maximal-dissipation impulse (checked against a brute-force search over the ellipse),
// the discrete maximal-dissipation path is straight and stops where the kinematics says on
// isotropic friction and curves on anisotropic friction, the exact complementarity step follows
// that path to rounding, and the box_slip frames load in every registered solver.
#include "harness/reproduce/box_slip.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "harness/runner.h"
#include "harness/simulate.h"
#include "problems/physics/geometry.h"
#include "problems/physics/system.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/registry.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

constexpr double kG = 9.81, kSlipDt = 1e-3;

// The tangent rows of the ellipse: t1 along the axis in the contact plane, t2 ⊥ it scaled by
// μ_y/μ_x; the disk of radius μ_x λ_n in those coordinates maximizes the dissipation over the
// ellipse ‖(λ_1/μ_x, λ_2/μ_y)‖ ≤ λ_n for any tangential velocity.
TEST(EllipticFrame, DiskInScaledRowsIsTheEllipsesMaximalDissipation) {
  const double mu_x = 0.2, mu_y = 0.7;
  const physics::Vec3 n = physics::Vec3(0.1, -0.2, 1.0).normalized();
  const physics::EllipticFrame f =
      physics::EllipticContactFrame(n, physics::Vec3(1, 0.3, 0), mu_x, mu_y);
  EXPECT_DOUBLE_EQ(f.mu, mu_x);
  EXPECT_NEAR(f.rows.row(0).dot(n), 1.0, 1e-15);
  EXPECT_NEAR(f.rows.row(1).norm(), 1.0, 1e-15);
  EXPECT_NEAR(f.rows.row(1).dot(n), 0.0, 1e-15);
  EXPECT_NEAR(f.rows.row(2).norm(), mu_y / mu_x, 1e-14);
  EXPECT_NEAR(f.rows.row(2).dot(f.rows.row(1)), 0.0, 1e-15);
  const physics::Vec3 t1 = f.rows.row(1).transpose(), t2 = f.rows.row(2).normalized().transpose();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    const physics::Vec3 w = u(rng) * t1 + u(rng) * t2;  // a tangential velocity
    // In the rows' coordinates ũ = rows_t w, the disk's maximizer λ̃ = −μ_x ũ / ‖ũ‖ (λ_n = 1).
    const Eigen::Vector2d ut(f.rows.row(1).dot(w), f.rows.row(2).dot(w));
    const Eigen::Vector2d lt = -f.mu * ut / ut.norm();
    const physics::Vec3 force =
        f.rows.row(1).transpose() * lt[0] + f.rows.row(2).transpose() * lt[1];
    // Brute force over the ellipse's boundary in the (t1, t2) basis.
    double best = -1e300;
    physics::Vec3 arg = physics::Vec3::Zero();
    for (int k = 0; k < 200000; ++k) {
      const double a = 2 * M_PI * k / 200000;
      const physics::Vec3 l = mu_x * std::cos(a) * t1 + mu_y * std::sin(a) * t2;
      if (-l.dot(w) > best) best = -l.dot(w), arg = l;
    }
    EXPECT_NEAR((force - arg).norm(), 0.0, 1e-4) << trial;
    EXPECT_GE(-force.dot(w), best - 1e-12) << trial;
  }
}

TEST(EllipticFrame, AxisAlongTheNormalFallsBackToTheIsotropicTangents) {
  const physics::Vec3 n(0, 0, 1);
  const physics::EllipticFrame f = physics::EllipticContactFrame(n, n, 0.3, 0.6);
  const physics::Mat3 iso = physics::ContactFrame(n);
  EXPECT_TRUE(f.rows.row(1).isApprox(iso.row(1)));
  EXPECT_TRUE(f.rows.row(2).isApprox(2.0 * iso.row(2)));
}

TEST(MdpPath, IsotropicSlidesStraightToItsStoppingDistance) {
  const Eigen::Vector2d v0(0.6, 0.8);
  const double mu = 0.3;
  const std::vector<Eigen::Vector2d> x = MdpPath(v0, mu, mu, kG, kSlipDt, 600);
  // Each step removes μ g dt of speed along the velocity: v_k = 1 − k μ g dt until it sticks.
  double dist = 0.0;
  for (double s = 1.0 - mu * kG * kSlipDt; s > 0; s -= mu * kG * kSlipDt) dist += kSlipDt * s;
  EXPECT_NEAR(x.back().norm(), dist, 1e-12);
  EXPECT_NEAR(x.back().normalized().dot(v0), 1.0, 1e-14);
  EXPECT_LT(HeadingTurn(x), 1e-6);
  EXPECT_EQ(MdpStep(Eigen::Vector2d(1e-4, 0), mu, mu, kG, kSlipDt), Eigen::Vector2d::Zero());
}

TEST(MdpPath, AnisotropicCurvesTowardsTheLowerFriction) {
  const std::vector<Eigen::Vector2d> x =
      MdpPath(Eigen::Vector2d(0.7071, 0.7071), 0.1, 0.6, kG, kSlipDt, 1500);
  EXPECT_GT(HeadingTurn(x), 30.0);
  EXPECT_GT(x.back().x(), 3 * x.back().y());  // most of the slide is along the slippery x
}

// Frames of box_slip on anisotropic friction stepped by nnewton follow the maximal-dissipation
// path to rounding: the ellipse enters the problem exactly.
TEST(BoxSlip, ExactStepFollowsTheMaximalDissipationPath) {
  const SceneEntry* scene = FindScene("box_slip");
  ASSERT_NE(scene, nullptr);
  SimulateOptions sim = SteppingOptions("nnewton", 50, 300);
  sim.step_tol = 1e-10;
  sim.dt = kSlipDt;
  std::vector<Eigen::Vector2d> path = {Eigen::Vector2d::Zero()};
  sim.on_step = [&](const ContactProblem&, const WarmStart& s) {
    path.push_back(path.back() + kSlipDt * Eigen::Vector2d(s.v[0], s.v[1]));
  };
  Simulate(*scene, {{"mu_x", "0.1"}, {"mu_y", "0.6"}, {"speed", "1"}, {"angle_deg", "45"}}, 1, sim);
  const std::vector<Eigen::Vector2d> mdp =
      MdpPath(Eigen::Vector2d(std::sqrt(0.5), std::sqrt(0.5)), 0.1, 0.6, kG, kSlipDt, 300);
  ASSERT_EQ(path.size(), mdp.size());
  for (std::size_t k = 0; k < path.size(); ++k)
    ASSERT_LT((path[k] - mdp[k]).norm(), 1e-9) << "step " << k;
  EXPECT_GT(HeadingTurn(path), 5.0);
}

TEST(BoxSlip, AFrameRunsInEverySolverOrSaysWhyNot) {
  const std::vector<ContactProblem> frames =
      GenerateProblems("box_slip", {{"mu_x", "0.2"}, {"mu_y", "0.5"}}, 1, 1, false, true);
  ASSERT_EQ(frames.size(), 1u);
  const ContactProblem& p = frames[0];
  ASSERT_EQ(p.num_contacts(), 4);
  const Evaluator ev(p);
  RunOptions opt;
  opt.budget.iters = 20;
  opt.budget.time_ms = 20000;
  int ran = 0;
  for (const SolverEntry& e : Solvers()) {
    if (e.name.rfind("test-", 0) == 0) continue;  // the tests' own stand-ins
    const RunRecord r =
        RunOne(p, ev, SolverJob{&e, Settings::Parse(e.name, e.settings, {})}, opt, nullptr, 0);
    if (r.status == Outcome::kNotApplicable) {
      EXPECT_FALSE(r.message.empty()) << e.name << " refused without a reason";
      continue;
    }
    // An engine's pivoting solver may give up on the box's four redundant corners (Bullet's
    // Lemke does on the isotropic frame too), and Siconos' gfc3d NSN-AC finds its Newton system
    // singular there and stops at once: a failure each names, never a crash or a NaN result.
    if (r.status == Outcome::kFailed &&
        (e.name.rfind("bullet:", 0) == 0 || e.name == "siconos:g-nsn-ac")) {
      EXPECT_FALSE(r.message.empty()) << e.name << " failed without a reason";
      continue;
    }
    ++ran;
    EXPECT_TRUE(RanToEnd(r.status)) << e.name << ": " << ToString(r.status) << " " << r.message;
    EXPECT_TRUE(std::isfinite(r.final_metrics[Metric::kRes004])) << e.name;
  }
  EXPECT_GE(ran, 20);
}

// A frictionless box on an anisotropic floor: the pair is frictionless on both axes, its rows
// finite (the ellipse's ratio μ_y/μ_x would be 0/0).
TEST(BoxSlip, AFrictionlessPartnerMakesAFrictionlessPair) {
  physics::MultibodySystem s;
  physics::Geom floor;
  floor.shape.type = physics::ShapeType::kPlane;
  floor.mu = 0.2, floor.mu_y = 0.5;
  s.AddWorldGeom(floor);
  physics::Pose pose = physics::Pose::Identity();
  pose.translation() = physics::Vec3(0, 0, 0.1);
  AddBox(s, 1.0, physics::Vec3::Constant(0.1), 0.0, pose);
  s.Finalize();
  const ContactProblem p = s.BuildProblem(nullptr);
  ASSERT_EQ(p.num_contacts(), 4);
  for (const Constraint& c : p.constraints) EXPECT_EQ(c.mu, 0.0);
  EXPECT_TRUE(Eigen::MatrixXd(p.J).allFinite());
}

// One ellipse per pair, with both coefficients positive: anything else is refused by name.
TEST(BoxSlip, RefusesAnEllipseWithoutBothCoefficients) {
  physics::MultibodySystem s;
  physics::Geom g;
  g.shape.type = physics::ShapeType::kPlane;
  g.mu = 0.0, g.mu_y = 0.5;
  testing::ExpectError([&] { s.AddWorldGeom(g); }, {"mu = 0, mu_y = 0.5", "both > 0"});
}

}  // namespace
}  // namespace ncp
