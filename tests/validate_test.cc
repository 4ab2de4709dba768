// Validate(): each failure names the field, the index and the values.
#include <gtest/gtest.h>

#include "problems/model/validate.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

ContactProblem Good() { return MakeManufacturedProblem(testing::AcceptanceOptions(3), "good"); }

TEST(Validate, ManufacturedProblemIsValid) { EXPECT_EQ(Validate(Good()), ""); }

TEST(Validate, WrongLengthOfB) {
  ContactProblem p = Good();
  p.b.conservativeResize(p.b.size() - 1);
  EXPECT_EQ(Validate(p), "b: wrong size: expected 360, got 359");
}

TEST(Validate, NaNInA) {
  ContactProblem p = Good();
  p.A.coeffRef(4, 4) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Validate(p), "A(4,4) = nan: must be finite");
}

TEST(Validate, NonSpdA) {
  ContactProblem p = Good();
  for (int k = 0; k < 6; ++k) p.A.coeffRef(k, k) = -1.0;
  EXPECT_EQ(Validate(p), "A: not symmetric positive definite (Cholesky failed)");
}

TEST(Validate, AsymmetricA) {
  ContactProblem p = Good();
  p.A.coeffRef(0, 1) += 1.0;
  EXPECT_NE(Validate(p).find("A: not symmetric"), std::string::npos) << Validate(p);
}

TEST(Validate, NegativeMu) {
  ContactProblem p = Good();
  p.constraints[7].mu = -0.5;
  EXPECT_EQ(Validate(p), "constraint[7].mu = -0.5: must be finite and >= 0");
}

TEST(Validate, NonPositiveSoftGain) {
  ContactProblem p = Good();
  for (auto& c : p.constraints)
    if (c.type == ConstraintType::kSoft) {
      c.damping = 0.0;
      break;
    }
  EXPECT_NE(Validate(p).find(".damping = 0: must be finite and > 0"), std::string::npos);
}

TEST(Validate, RowRanges) {
  ContactProblem p = Good();
  p.constraints[2].row += 1;
  EXPECT_EQ(Validate(p), "constraint[2].row = 7: must be 6 (rows are contiguous, in order)");
}

TEST(Validate, WrongLengthOfE) {
  ContactProblem p = Good();
  p.e.conservativeResize(3);
  EXPECT_EQ(Validate(p), "e: wrong size: expected 170, got 3");
}

TEST(Validate, StructureBlocksMustReproduceJ) {
  ContactProblem p = Good();
  p.structure.blocks[3].jacobian(0, 0) += 1e-6;
  const std::string err = Validate(p);
  EXPECT_NE(err.find("structure: J("), std::string::npos) << err;
  EXPECT_NE(err.find("product of structure blocks"), std::string::npos) << err;
}

TEST(Validate, StructureBodyJacobianSize) {
  ContactProblem p = Good();
  p.structure.bodies[2].jacobian.resize(6, 5);
  EXPECT_EQ(Validate(p),
            "structure.bodies[2].jacobian: wrong argument size: expected 6x6, got 6x5");
}

TEST(Validate, LocalFormSizes) {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.3);
  p.W = SpMat(3, 3);
  p.W.setIdentity();
  p.q = Vec::Zero(2);
  EXPECT_EQ(Validate(p), "q: wrong size: expected 3, got 2");
}

}  // namespace
}  // namespace ncp
