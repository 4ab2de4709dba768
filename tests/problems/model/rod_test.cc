// Cosserat rod of rigid links with soft coupling rows (rod_coupling.h, rod.h) against beam
// theory: the static sag of a cantilever under its own weight (bending, δ = qL⁴/(8EI)) and the
// elongation of a rod hanging under its own weight (stretch, δ = qL²/(2EA)), both reached by
// damped implicit steps (for the cantilever with a long dt, so that each step is a Newton step on
// the elastic energy), and the torque of a twisted rod (GJ ψ/L). The steps have soft rows only
// (and the twisted rod's 6 hard rows), so each is solved exactly with the soft rows folded in.
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cmath>
#include <cstdio>

#include "problems/model/fold_soft.h"
#include "problems/model/validate.h"
#include "problems/scenarios/rigid/rod.h"

namespace ncp {
namespace {

using namespace physics;

// One implicit step, solved exactly: returns the largest speed of the step.
double ExactStep(MultibodySystem& s) {
  const ContactProblem p = s.BuildProblem();
  const FoldedProblem f = FoldSoftRows(p);
  EXPECT_EQ(f.problem.num_rows(), 0);
  Eigen::SimplicialLDLT<SpMat> ldlt(f.problem.A);
  const Vec v = ldlt.solve(f.problem.b);
  s.Advance(v);
  return v.cwiseAbs().maxCoeff();
}

// A rod clamped at its start (soft clamp with the rod's own gains, i.e. the clamp is the first
// joint), stepped with `dt` until at rest; returns the free end's position.
Vec3 RestingTip(const RodSpec& spec, const Pose& start, double dt) {
  StepOptions opt;
  opt.dt = dt;
  MultibodySystem s(opt);
  const Rod rod = AddRod(s, spec, start);
  AddRodEndCoupling(s, rod, 0, false);
  s.Finalize();
  double speed = 1.0;
  for (int k = 0; k < 5000 && speed > 1e-12; ++k) speed = ExactStep(s);
  EXPECT_LT(speed, 1e-12) << "not at rest";
  return s.BodyPose(rod.first_body + rod.links - 1) * Vec3(0, 0, 0.5 * rod.link_length);
}

TEST(Rod, CantileverSagMatchesBeamTheory) {
  RodSpec spec;
  spec.links = 100;
  spec.length = 1.0;
  spec.radius = 0.01;
  spec.density = 1000;
  spec.young = 5e9;  // sag ≈ 1% of the length: small rotations
  const Pose along_x(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()));
  const Vec3 tip = RestingTip(spec, along_x, 1.0);
  const double A = M_PI * spec.radius * spec.radius, I = 0.25 * M_PI * std::pow(spec.radius, 4);
  const double q = spec.density * A * 9.81, L = spec.length, N = spec.links;
  const double beam = q * std::pow(L, 4) / (8 * spec.young * I);
  // Lumped bending at the N joints (clamp included): Σ θ_j (L − x_j) = beam (1 + 1/N)².
  const double lumped = beam * (1 + 1 / N) * (1 + 1 / N);
  const double sag = -tip.z();
  std::printf(
      "cantilever, %d links: tip sag %.6e m, beam qL^4/(8EI) %.6e m (%+.2f%%), lumped "
      "model %.6e m (%+.3f%%)\n",
      spec.links, sag, beam, 100 * (sag / beam - 1), lumped, 100 * (sag / lumped - 1));
  EXPECT_NEAR(sag, beam, 0.05 * beam);
  EXPECT_NEAR(sag, lumped, 0.002 * lumped);
  EXPECT_LT(std::abs(tip.y()), 1e-9 * L) << "sag out of the load plane";
}

TEST(Rod, HangingRodStretchMatchesBarTheory) {
  RodSpec spec;
  spec.links = 50;
  spec.length = 1.0;
  spec.radius = 0.01;
  spec.density = 1000;
  spec.young = 1e6;
  const Pose down(Eigen::AngleAxisd(M_PI, Vec3::UnitX()));  // rod axis −z
  // Under tension the force directions turn with the links, which the linearized step leaves
  // explicit: a hanging rod needs a dt well below its pendulum period.
  spec.damping = 0.01;
  const Vec3 tip = RestingTip(spec, down, 0.01);
  const double EA = spec.young * M_PI * spec.radius * spec.radius;
  const double q = spec.density * M_PI * spec.radius * spec.radius * 9.81, L = spec.length;
  const double bar = q * L * L / (2 * EA);
  const double lumped = bar * (1 + 1.0 / spec.links);  // tension q(L − x_j) at the N joints
  const double stretch = -tip.z() - L;
  std::printf(
      "hanging rod, %d links: elongation %.6e m, bar qL^2/(2EA) %.6e m (%+.2f%%), lumped "
      "model %.6e m (%+.3f%%)\n",
      spec.links, stretch, bar, 100 * (stretch / bar - 1), lumped, 100 * (stretch / lumped - 1));
  EXPECT_NEAR(stretch, bar, 0.05 * bar);
  EXPECT_NEAR(stretch, lumped, 0.002 * lumped);
}

// A twisted rod: clamped at its start, its end held by hard rows at an angle ψ about the axis.
// At rest every joint carries the torque GJ ψ / L, which the end's twist row reports as λ/dt.
TEST(Rod, TwistTorqueMatchesTorsionTheory) {
  RodSpec spec;
  spec.links = 10;
  spec.length = 0.5;
  spec.radius = 0.01;
  spec.young = 1e6;
  spec.poisson = 0.3;
  StepOptions opt;
  opt.dt = 0.01;
  opt.gravity.setZero();
  MultibodySystem s(opt);
  const Rod rod = AddRod(s, spec, Pose::Identity());
  AddRodEndCoupling(s, rod, 0, false);
  const int end = AddRodEndCoupling(s, rod, 1, true);
  const double psi = 0.2;
  Pose held = s.couplings()[end].frame_a;
  held.linear() = Eigen::AngleAxisd(psi, Vec3::UnitZ()).toRotationMatrix();
  s.SetCouplingFrame(end, held, Vec3::Zero(), Vec3::Zero());
  s.Finalize();
  // The hard rows are solved with the soft ones folded in: a KKT system [A Jᵀ; J 0].
  double torque = 0.0;
  for (int k = 0; k < 400; ++k) {
    const ContactProblem p = s.BuildProblem();
    ASSERT_EQ(Validate(p, {}), "");
    const FoldedProblem f = FoldSoftRows(p);
    const int n = f.problem.num_dofs(), m = f.problem.num_rows();
    ASSERT_EQ(m, 6);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
    K.topLeftCorner(n, n) = Eigen::MatrixXd(f.problem.A);
    K.bottomLeftCorner(m, n) = Eigen::MatrixXd(f.problem.J);
    K.topRightCorner(n, m) = -Eigen::MatrixXd(f.problem.J).transpose();
    Vec rhs(n + m);
    rhs << f.problem.b, -f.problem.e;  // A v − Jᵀλ = b, J v + e = 0
    const Vec x = K.partialPivLu().solve(rhs);
    torque = std::abs(x[n + 5]) / opt.dt;
    s.Advance(x.head(n));
  }
  const double G = spec.young / (2 * (1 + spec.poisson));
  const double GJ = G * 0.5 * M_PI * std::pow(spec.radius, 4);
  const double expected = GJ * psi / spec.length;  // clamp + links − 1 joints in series
  std::printf(
      "twisted rod, %d links, psi %.2f rad: end torque %.6e N m, GJ psi/L %.6e N m "
      "(%+.3f%%)\n",
      spec.links, psi, torque, expected, 100 * (torque / expected - 1));
  EXPECT_NEAR(torque, expected, 0.01 * expected);
}

TEST(Rod, BadCouplingsAreRefused) {
  MultibodySystem s;
  RodSpec spec;
  spec.links = 3;
  const Rod rod = AddRod(s, spec, Pose::Identity());
  Coupling c;
  c.body_b = rod.first_body + 3;
  EXPECT_THROW(s.AddCoupling(c), std::runtime_error);
  c.body_b = rod.first_body;
  c.body_a = rod.first_body;
  EXPECT_THROW(s.AddCoupling(c), std::runtime_error);
  c.body_a = -1;
  c.stiffness[2] = -1;
  EXPECT_THROW(s.AddCoupling(c), std::runtime_error);
  EXPECT_THROW(CosseratStiffness(1e6, 0.5, 0.01, 0.1), std::runtime_error);
  EXPECT_THROW(s.GroupSubsystems(0, 4, 2, "cable"), std::runtime_error);
}

}  // namespace
}  // namespace ncp
