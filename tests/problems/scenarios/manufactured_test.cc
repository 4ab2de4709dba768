// Manufactured problems: valid, deterministic in the seed, exact reference, chosen statuses.
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/metrics/evaluator.h"
#include "problems/model/validate.h"
#include "problems/scenarios/scenarios.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

bool Identical(const SpMat& a, const SpMat& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && a.nonZeros() == b.nonZeros() &&
         (a - b).norm() == 0.0;
}

// Both families, trees included: nothing may draw from a generator other than the seeded one
// (Eigen's Random() draws from std::rand, whose state the calls in between move on).
TEST(Manufactured, DeterministicInSeed) {
  for (const auto& o : {testing::AcceptanceOptions(42), testing::TreeOptions(42)}) {
    const ContactProblem a = MakeManufacturedProblem(o, "a");
    for (int k = 0; k < 3; ++k) std::rand();  // move std::rand's state on
    const ContactProblem b = MakeManufacturedProblem(o, "a");
    EXPECT_TRUE(Identical(a.A, b.A)) << o.articulated;
    EXPECT_TRUE(Identical(a.J, b.J)) << o.articulated;
    EXPECT_EQ(a.b, b.b);
    EXPECT_EQ(a.e, b.e);
    EXPECT_EQ(a.reference->lambda, b.reference->lambda);
    auto o2 = o;
    o2.seed = 43;
    EXPECT_FALSE(Identical(a.A, MakeManufacturedProblem(o2, "a").A));
  }
}

TEST(Manufactured, ValidWithStructureAndAllTypes) {
  auto o = testing::AcceptanceOptions(7);
  o.bodies_per_subsystem = 3;
  o.coupling = 0.5;
  const ContactProblem p = MakeManufacturedProblem(o, "p");
  EXPECT_EQ(Validate(p), "");
  EXPECT_EQ(p.num_contacts(), 50);
  EXPECT_EQ(p.num_constraints(), 70);
  EXPECT_EQ(p.structure.subsystems.size(), 20u);
}

TEST(Manufactured, StatusMixIsAsChosen) {
  auto o = testing::AcceptanceOptions(8);
  o.num_contacts = 300;
  o.num_bodies = 320;
  const ContactProblem p = MakeManufacturedProblem(o, "p");
  const Evaluator ev(p);
  const Vec u = ev.ConstraintVelocity(p.reference->lambda);
  int open = 0, stick = 0, slip = 0;
  for (const Constraint& c : p.constraints) {
    if (c.type != ConstraintType::kContact) continue;
    const double* l = p.reference->lambda.data() + c.row;
    const double ut = std::hypot(u[c.row + 1], u[c.row + 2]);
    if (l[0] == 0.0)
      ++open;
    else if (ut < 1e-9)
      ++stick;
    else
      ++slip;
  }
  // Fractions 0.2 / 0.4 / 0.4 of 300 contacts, within sampling noise.
  EXPECT_NEAR(open, 60, 25);
  EXPECT_NEAR(stick, 120, 30);
  EXPECT_NEAR(slip, 120, 30);
}

TEST(Manufactured, RejectsBadOptions) {
  ManufacturedOptions o;
  o.mass_ratio = 0.5;
  EXPECT_EQ(OptionsError(o), "mass_ratio = 0.5: must be >= 1");
  EXPECT_THROW(MakeManufacturedProblem(o, "x"), std::runtime_error);
}

// The joint-friction family: valid with its structure layer, deterministic, and physical per
// joint (u_n = 0, the five tangent velocities of a joint equal: r q̇, zero when it sticks).
TEST(ManufacturedJointFriction, ValidDeterministicAndPhysical) {
  for (double branching : {0.0, 1.0}) {
    SCOPED_TRACE(branching);
    JointFrictionTreeOptions o;
    o.bodies = 7;
    o.branching = branching;
    const ContactProblem p = ManufacturedJointFrictionTree(o, 3, "jf");
    EXPECT_EQ(Validate(p), "");
    EXPECT_EQ(p.num_constraints(), 5 * 7);
    EXPECT_EQ(p.num_rows(), 10 * 7);
    EXPECT_EQ(p.num_dofs(), 6 * 7);
    EXPECT_EQ(p.structure.bodies.size(), 7u);
    EXPECT_EQ(p.structure.blocks.size(), 5u * (2 * 7 - 1));  // the world joint has one body
    for (const Constraint& c : p.constraints) EXPECT_EQ(c.type, ConstraintType::kJointFriction);
    for (int k = 0; k < 3; ++k) std::rand();
    const ContactProblem q = ManufacturedJointFrictionTree(o, 3, "jf");
    EXPECT_TRUE(Identical(p.A, q.A));
    EXPECT_TRUE(Identical(p.J, q.J));
    EXPECT_EQ(p.b, q.b);
    EXPECT_EQ(p.e, q.e);
    EXPECT_EQ(p.reference->lambda, q.reference->lambda);
    EXPECT_FALSE(Identical(p.J, ManufacturedJointFrictionTree(o, 4, "jf").J));

    const Vec u = p.J * p.reference->v + p.e;
    int sticking = 0, sliding = 0;
    for (int j = 0; j < 7; ++j) {
      const int r0 = p.constraints[5 * j].row;
      for (int k = 0; k < 5; ++k) {
        const int r = p.constraints[5 * j + k].row;
        EXPECT_EQ(u[r], 0.0);
        EXPECT_NEAR(u[r + 1], u[r0 + 1], 1e-12) << "joint " << j << " contact " << k;
      }
      (u[r0 + 1] == 0.0 ? sticking : sliding) += 1;
    }
    EXPECT_GT(sticking, 0);
    EXPECT_GT(sliding, 0);
    EXPECT_LE(Evaluator(p).Evaluate(p.reference->v, p.reference->lambda)[Metric::kRes004], 1e-12);

    // Without drift, v* is the tree's own motion: the joints' rows need no bias at all.
    o.drift = 0.0;
    EXPECT_LE(ManufacturedJointFrictionTree(o, 3, "jf").e.lpNorm<Eigen::Infinity>(), 1e-12);
  }
}

TEST(ManufacturedJointFriction, ScenarioGeneratesAndRejectsBadOptions) {
  const auto ps =
      FindScenario("joint_friction").generate({{"bodies", "4"}, {"branching", "1"}}, 2, 9);
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[1].meta.name, "joint_friction-0001");
  EXPECT_EQ(ps[1].meta.scenario, "joint_friction");
  EXPECT_EQ(ps[1].meta.seed, 10u);
  EXPECT_EQ(ps[0].num_constraints(), 20);
  JointFrictionTreeOptions o;
  o.radius_min = 0.3, o.radius_max = 0.2;
  EXPECT_EQ(OptionsError(o), "radius_max = 0.2: must be finite and >= radius_min (0.3)");
  EXPECT_THROW(ManufacturedJointFrictionTree(o, 1), std::runtime_error);
}

}  // namespace
}  // namespace ncp
