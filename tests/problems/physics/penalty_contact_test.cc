// The spring-damper contact of 002 §V-B against hand-derived cases on a point mass: no force
// while separated, the spring's impulse dt k d on a penetration d, friction capped by the Coulomb
// cone while sliding, and the resting penetration m g / k it settles at.
#include "problems/physics/penalty_contact.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/expect_error.h"

namespace ncp::physics {
namespace {

constexpr double kMass = 2.0, kStepDt = 1e-3, kMu = 0.4, kG = 9.81;

// One frictional contact with the floor on a point mass moving at v: A = m I,
// b = m v − dt m g ẑ, J the contact frame [n; t1; t2] with n = ẑ.
ContactProblem PointOnFloor(const Eigen::Vector3d& v) {
  ContactProblem p;
  p.form = ProblemForm::kGlobal;
  p.A.resize(3, 3);
  p.A.setIdentity();
  p.A *= kMass;
  p.b = kMass * v - kStepDt * kMass * kG * Eigen::Vector3d::UnitZ();
  AddConstraint(p.constraints, ConstraintType::kContact, kMu);
  const Mat3 F = ContactFrame(Vec3::UnitZ());
  p.J = F.sparseView();
  p.e = Vec::Zero(3);
  p.meta.dt = kStepDt;
  return p;
}

std::vector<ContactPoint> At(double gap) {
  ContactPoint c;
  c.gap = gap;
  return {c};
}

TEST(PenaltyContact, NoForceWhileSeparated) {
  PenaltyContact pc({1e4, 100, 1e4, 100});
  const Eigen::Vector3d v(0.3, -0.2, -1.0);
  const ContactProblem p = PointOnFloor(v);
  const Vec vhat = pc.Step(p, At(1e-3), v);
  EXPECT_LE((vhat - p.b / kMass).norm(), 1e-15);
}

TEST(PenaltyContact, SpringImpulseOnAPenetrationAtRest) {
  const double kn = 5e3, d = 2e-3;
  PenaltyContact pc({kn, 50, 1e4, 100});
  const Eigen::Vector3d v = Eigen::Vector3d::Zero();
  const ContactProblem p = PointOnFloor(v);
  const Vec vhat = pc.Step(p, At(-d), v);
  // λ_n = dt k d pushes up; nothing moves sideways.
  EXPECT_NEAR(vhat.z(), (p.b.z() + kStepDt * kn * d) / kMass, 1e-15);
  EXPECT_NEAR(vhat.x(), 0.0, 1e-15);
  EXPECT_NEAR(vhat.y(), 0.0, 1e-15);
}

TEST(PenaltyContact, SlidingFrictionIsCappedByTheCone) {
  const double kn = 1e4, d = 1e-3;
  PenaltyContact pc({kn, 0, 1e4, 1e3});  // damping ct u = 1000 N ≫ μ k d = 4 N
  const Eigen::Vector3d v(1.0, 0.0, 0.0);
  const ContactProblem p = PointOnFloor(v);
  const Vec vhat = pc.Step(p, At(-d), v);
  const double fn = kn * d;
  // The friction impulse opposes the slide with exactly μ dt f_n.
  EXPECT_NEAR(kMass * (vhat.x() - v.x()), -kMu * kStepDt * fn, 1e-12);
  EXPECT_NEAR(vhat.y(), 0.0, 1e-15);
}

TEST(PenaltyContact, SettlesAtTheWeightOverTheStiffness) {
  const double kn = 1e4, cn = 2 * std::sqrt(kn * kMass);  // critically damped
  PenaltyContact pc({kn, cn, kn, cn});
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  double gap = 0.0;
  for (int k = 0; k < 3000; ++k) {
    v = pc.Step(PointOnFloor(v), At(gap), v);
    gap += kStepDt * v.z();
  }
  EXPECT_NEAR(-gap, kMass * kG / kn, 1e-3 * kMass * kG / kn);
}

TEST(PenaltyContact, BadInputGivesOneLineErrors) {
  ncp::testing::ExpectError([] { PenaltyContact({-1, 0, 0, 0}); }, {"kn", "-1", ">= 0"});
  ncp::testing::ExpectError([] { PenaltyContact({1, NAN, 0, 0}); }, {"cn", "finite"});
  PenaltyContact pc({1e4, 10, 1e4, 10});
  const ContactProblem p = PointOnFloor(Eigen::Vector3d::Zero());
  ncp::testing::ExpectError([&] { pc.Step(p, At(0), Vec::Zero(2)); }, {"v", "expected 3, got 2"});
  ncp::testing::ExpectError([&] { pc.Step(p, {}, Vec::Zero(3)); },
                            {"0 contact points", "1 constraints"});
}

}  // namespace
}  // namespace ncp::physics
