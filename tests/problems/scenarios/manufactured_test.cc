// Manufactured problems: valid, deterministic in the seed, exact reference, chosen statuses.
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/metrics/evaluator.h"
#include "problems/model/validate.h"
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
    if (l[0] == 0.0) ++open;
    else if (ut < 1e-9) ++stick;
    else ++slip;
  }
  // Fractions 0.2 / 0.4 / 0.4 of 300 contacts, within sampling noise.
  EXPECT_NEAR(open, 60, 25);
  EXPECT_NEAR(stick, 120, 30);
  EXPECT_NEAR(slip, 120, 30);
}

TEST(Manufactured, RejectsBadOptions) {
  ManufacturedOptions o;
  o.mass_ratio = 0.5;
  EXPECT_EQ(ValidateOptions(o), "mass_ratio = 0.5: must be >= 1");
  EXPECT_THROW(MakeManufacturedProblem(o, "x"), std::runtime_error);
}

}  // namespace
}  // namespace ncp
