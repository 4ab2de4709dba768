// Validate(): each failure names the field, the index and the values.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <utility>

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

// Values a corrupt file can carry that no comparison with a tolerance catches (NaN compares
// false): each is refused by name.
TEST(Validate, NonFiniteOrImpossibleValuesAreRefused) {
  {
    ContactProblem p = Good();
    p.structure.blocks[3].jacobian(0, 0) = std::nan("");
    EXPECT_EQ(Validate(p), "structure.blocks[3].jacobian: a non-finite entry");
  }
  {
    ContactProblem p = Good();
    p.structure.bodies[1].jacobian(2, 0) = std::nan("");
    EXPECT_NE(Validate(p).find("structure.bodies[1]: inertia, com, transform or jacobian"),
              std::string::npos);
  }
  for (double mass : {0.0, -1.0, std::nan("")}) {
    ContactProblem p = Good();
    p.structure.bodies[0].mass = mass;
    EXPECT_NE(Validate(p).find("structure.bodies[0].mass = "), std::string::npos) << mass;
  }
  {
    ContactProblem p = Good();
    p.structure.subsystems[0].kind = "plasma";
    EXPECT_NE(Validate(p).find("structure.subsystems[0].kind = 'plasma'"), std::string::npos);
  }
  {
    ContactProblem p = Good();
    p.reference->lambda[0] = INFINITY;
    EXPECT_EQ(Validate(p), "reference: v or lambda has a non-finite entry");
  }
  {
    // Shipped guesses: v of n entries or none, λ of m, all finite.
    ContactProblem p = Good();
    const int n = p.num_dofs(), m = p.num_rows();
    p.guesses = {{Vec(), Vec::Zero(m)}, {Vec::Zero(n), Vec::Zero(m)}};
    EXPECT_EQ(Validate(p), "");
    p.guesses[1].v = Vec::Zero(n + 1);
    EXPECT_NE(Validate(p).find("guesses[1].v"), std::string::npos) << Validate(p);
    p.guesses[1].v = Vec::Zero(n);
    p.guesses[0].lambda = Vec::Zero(m - 1);
    EXPECT_NE(Validate(p).find("guesses[0].lambda"), std::string::npos) << Validate(p);
    p.guesses[0].lambda = Vec::Zero(m);
    p.guesses[1].lambda[0] = std::nan("");
    EXPECT_EQ(Validate(p), "guesses[1]: v or lambda has a non-finite entry");
  }
  {
    ContactProblem p = Good();
    const int bilateral = p.num_constraints() - 1 - 6;  // some non-contact row
    ASSERT_NE(p.constraints[bilateral].type, ConstraintType::kContact);
    p.constraints[bilateral].mu = std::nan("");
    EXPECT_NE(Validate(p).find(".mu = nan: must be finite"), std::string::npos) << Validate(p);
  }
  {
    ContactProblem p = Good();
    p.meta.dt = std::nan("");
    EXPECT_EQ(Validate(p), "meta.dt = nan: must be finite and >= 0");
  }
  // Fields a row's type does not use are still refused when not finite (a corrupt file).
  {
    ContactProblem p = Good();
    ASSERT_EQ(p.constraints[0].type, ConstraintType::kContact);
    p.constraints[0].damping = std::nan("");
    EXPECT_EQ(Validate(p), "constraint[0].damping = nan: must be finite");
    p.constraints[0].damping = 0.0;
    p.constraints[0].stiffness = INFINITY;
    EXPECT_EQ(Validate(p), "constraint[0].stiffness = inf: must be finite");
  }
  {
    ContactProblem p = Good();
    p.meta.params["condition"] = INFINITY;
    EXPECT_EQ(Validate(p), "meta.params.condition = inf: must be finite");
  }
  for (double res : {std::nan(""), -double{INFINITY}, -0.5}) {
    ContactProblem p = Good();
    p.reference->res004 = res;
    EXPECT_NE(Validate(p).find("reference.res004 = "), std::string::npos) << res;
  }
  {
    ContactProblem p = Good();
    p.reference->res004 = -1.0;  // unknown
    EXPECT_EQ(Validate(p), "");
  }
  {
    ContactProblem p = Good();
    p.structure.bodies[0].transform(1, 2) = std::nan("");
    EXPECT_NE(Validate(p).find("structure.bodies[0]: inertia, com, transform"), std::string::npos);
  }
}

// Parents that form a cycle (a body its own ancestor) are refused whether or not the bodies
// carry tree data; chains that end at a root pass.
TEST(Validate, ParentCyclesAreRefused) {
  ContactProblem p = Good();
  ASSERT_GE(p.structure.bodies.size(), 3u);
  EXPECT_EQ(Validate(p), "");
  for (auto& b : p.structure.bodies) b.joint_dof = -1, b.joint_dofs = 0;  // no tree data
  p.structure.bodies[0].parent = 2, p.structure.bodies[2].parent = 1,
  p.structure.bodies[1].parent = -1;
  EXPECT_EQ(Validate(p), "");        // 0 → 2 → 1 → root
  p.structure.bodies[1].parent = 0;  // 0 → 2 → 1 → 0
  EXPECT_NE(Validate(p).find("the parents form a cycle"), std::string::npos) << Validate(p);
  p.structure.bodies[1].parent = 1;  // its own parent
  EXPECT_NE(Validate(p).find("structure.bodies[1].parent = 1: the parents form a cycle"),
            std::string::npos)
      << Validate(p);
}

// Integers from a corrupt file near INT_MAX: sums of them must not wrap back into range (a
// joint_dof of 2^31 - 1 passed the range check by overflow and crashed the tree check).
TEST(Validate, IndexSumsDoNotWrap) {
  {
    ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(5), "tree");
    ASSERT_EQ(Validate(p), "");
    auto& bodies = p.structure.bodies;
    const auto tree = std::find_if(bodies.begin(), bodies.end(),
                                   [](const Structure::Body& b) { return b.has_tree(); });
    ASSERT_NE(tree, bodies.end());
    const int k = static_cast<int>(tree - bodies.begin());
    for (const auto& [dof, dofs] : {std::pair{INT_MAX, 6}, {1, INT_MAX}, {INT_MAX, INT_MAX}}) {
      tree->joint_dof = dof;
      tree->joint_dofs = dofs;
      EXPECT_NE(Validate(p).find(fmt::format("structure.bodies[{}].joint_dof = {}", k, dof)),
                std::string::npos)
          << Validate(p);
    }
  }
  {
    // Three subsystems whose counts sum to n only modulo 2^32.
    ContactProblem p = Good();
    const int n = p.num_dofs();
    auto& subs = p.structure.subsystems;
    subs.resize(3, subs[0]);
    subs[0].dof_begin = 0, subs[0].dof_count = INT_MAX;
    subs[1].dof_begin = INT_MAX, subs[1].dof_count = INT_MAX;
    subs[2].dof_begin = -2, subs[2].dof_count = n + 2;
    EXPECT_NE(Validate(p).find("structure.subsystems[2]: dof range [-2, +"), std::string::npos)
        << Validate(p);
  }
}

TEST(Validate, LocalWNeedsANonNegativeNonZeroDiagonal) {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.3);
  p.W = SpMat(3, 3);
  p.q = Vec::Ones(3);
  p.W.insert(0, 1) = 1.0;
  p.W.insert(1, 0) = 1.0;
  EXPECT_EQ(Validate(p), "W: zero diagonal: not a Delassus matrix");
  p.W.insert(0, 0) = 2.0;
  p.W.insert(2, 2) = -1e-3;
  EXPECT_EQ(Validate(p), "W(2,2) = -0.001: a Delassus matrix has no negative diagonal entry");
  p.W.coeffRef(2, 2) = 0.0;  // zero tangent rows of a unilateral row exported as a contact
  EXPECT_EQ(Validate(p), "");
}

}  // namespace
}  // namespace ncp
