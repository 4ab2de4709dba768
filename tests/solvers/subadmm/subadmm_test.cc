// SubADMM: the tree factorization of 004:40 against dense linear algebra, the 10-number form of
// App. A, and both variants converging on structured manufactured problems.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <algorithm>
#include <fmt/format.h>
#include <random>

#include "harness/runner.h"
#include "problems/model/validate.h"
#include "solvers/common/spatial_inertia.h"
#include "solvers/common/tree_factor.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

using Mat3 = Eigen::Matrix3d;
using V3 = Eigen::Vector3d;

Mat3 Skew(const V3& p) {
  Mat3 s;
  s << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
  return s;
}

// The trees of a structured manufactured problem, one TreeFactor body list per subsystem.
std::vector<TreeFactor::Body> TreeOf(const ContactProblem& p, int j, std::vector<int>* ids) {
  std::vector<TreeFactor::Body> tb;
  std::vector<int> local(p.structure.bodies.size(), -1);
  for (std::size_t b = 0; b < p.structure.bodies.size(); ++b) {
    const Structure::Body& body = p.structure.bodies[b];
    if (body.subsystem != j) continue;
    local[b] = static_cast<int>(tb.size());
    TreeFactor::Body x;
    x.parent = body.parent >= 0 ? local[body.parent] : -1;
    x.dof = body.joint_dof, x.ndof = body.joint_dofs, x.X = body.transform;
    x.S.leftCols(x.ndof) = body.jacobian.middleCols(x.dof, x.ndof);
    tb.push_back(x);
    ids->push_back(static_cast<int>(b));
  }
  return tb;
}

// Random SPD 6×6 per body: a body inertia plus a few point contacts and a 1-row block.
Mat6 RandomH(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  SpatialInertia10 s = SpatialInertia10::Body(1.0 + u(rng) + 0.5, V3(u(rng), u(rng), u(rng)),
                                              0.1 * Mat3::Identity());
  for (int k = 0; k < 3; ++k) s.AddPointMass(0.7, V3(u(rng), u(rng), u(rng)));
  Mat6 H;
  s.ToMatrix(H);
  Eigen::Matrix<double, 1, 6> row;
  for (int c = 0; c < 6; ++c) row[c] = u(rng);
  return H + 3.0 * row.transpose() * row;
}

TEST(SpatialInertia10, PointContactsEqualJacobianProducts) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  SpatialInertia10 s;
  Mat6 sum = Mat6::Zero();
  for (int k = 0; k < 20; ++k) {
    const V3 p(u(rng), u(rng), u(rng));
    const Mat3 R = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    Eigen::MatrixXd J(3, 6);
    J << R, -R * Skew(p);
    V3 found;
    ASSERT_TRUE(PointContactBlock(J, found));
    EXPECT_LE((found - p).norm(), 1e-14);
    s.AddPointMass(1.0, found);
    sum += J.transpose() * J;
  }
  Mat6 M;
  s.ToMatrix(M);
  EXPECT_LE((M - sum).cwiseAbs().maxCoeff(), 1e-12 * sum.cwiseAbs().maxCoeff());
  // A rigid body: [m I, −m[c]; m[c], I_c − m[c]²].
  const V3 c(0.1, -0.2, 0.3);
  const Mat3 Ic = Eigen::Vector3d(0.5, 0.7, 0.9).asDiagonal();
  Mat6 expect;
  expect << 2.0 * Mat3::Identity(), -2.0 * Skew(c), 2.0 * Skew(c), Ic - 2.0 * Skew(c) * Skew(c);
  SpatialInertia10::Body(2.0, c, Ic).ToMatrix(M);
  EXPECT_LE((M - expect).cwiseAbs().maxCoeff(), 1e-15);
  // A 1-row or non-orthonormal block is not a point contact.
  Eigen::MatrixXd one = Eigen::MatrixXd::Ones(1, 6);
  V3 p;
  EXPECT_FALSE(PointContactBlock(one, p));
}

class TreeFactorization : public ::testing::TestWithParam<TreeFactor::Method> {};

// K = Σ_b J_bᵀ H_b J_b + diag (004:40): the tree assembly equals the dense product and the tree
// solve equals a dense Cholesky solve, to 1e-12 relative, on every tree of 3 problems.
TEST_P(TreeFactorization, EqualsDenseFactorization) {
  std::mt19937_64 rng(11);
  double worst_k = 0.0, worst_x = 0.0;
  for (int seed = 0; seed < 3; ++seed) {
    const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(seed + 1), "t");
    for (std::size_t j = 0; j < p.structure.subsystems.size(); ++j) {
      std::vector<int> ids;
      std::vector<TreeFactor::Body> tb = TreeOf(p, static_cast<int>(j), &ids);
      const int n = p.structure.subsystems[j].dof_count;
      std::vector<Mat6> H;
      Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
      for (int b : ids) {
        H.push_back(RandomH(rng));
        const Eigen::MatrixXd& Jb = p.structure.bodies[b].jacobian;
        K += Jb.transpose() * H.back() * Jb;
      }
      Eigen::VectorXd diag = Eigen::VectorXd::Random(n).cwiseAbs();
      K.diagonal() += diag;
      TreeFactor f;
      std::string why;
      ASSERT_TRUE(f.Init(tb, n, GetParam(), &why)) << why;
      ASSERT_TRUE(f.Factorize(H.data(), diag.data()));
      if (GetParam() == TreeFactor::Method::kCrba) {
        const Eigen::MatrixXd lower = f.assembled().triangularView<Eigen::Lower>();
        const Eigen::MatrixXd klow = K.triangularView<Eigen::Lower>();
        worst_k = std::max(worst_k, (lower - klow).cwiseAbs().maxCoeff() / K.cwiseAbs().maxCoeff());
      }
      const Eigen::VectorXd r = Eigen::VectorXd::Random(n);
      Eigen::VectorXd x(n);
      f.Solve(r.data(), x.data());
      const Eigen::VectorXd xd = K.llt().solve(r);
      worst_x = std::max(worst_x, (x - xd).norm() / xd.norm());
    }
  }
  std::printf("tree factorization vs dense: assembly %.2e, solve %.2e (relative)\n", worst_k,
              worst_x);
  EXPECT_LE(worst_k, 1e-12);
  EXPECT_LE(worst_x, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Methods, TreeFactorization,
                         ::testing::Values(TreeFactor::Method::kCrba, TreeFactor::Method::kAba),
                         [](const auto& info) {
                           return info.param == TreeFactor::Method::kCrba ? "crba" : "aba";
                         });

TEST(TreeFactorization, RejectsDofsOutOfTreeOrder) {
  std::vector<TreeFactor::Body> tb(2);
  tb[0].ndof = 1, tb[0].dof = 1;
  tb[1].parent = 0, tb[1].ndof = 1, tb[1].dof = 0;  // child's dof before its parent's
  TreeFactor f;
  std::string why;
  EXPECT_FALSE(f.Init(tb, 2, TreeFactor::Method::kCrba, &why));
  EXPECT_NE(why.find("out of order"), std::string::npos) << why;
}

TEST(StructuredManufactured, TreesAreValidWithInterSubsystemContacts) {
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(5), "t");
  EXPECT_EQ(Validate(p), "");
  EXPECT_EQ(p.structure.subsystems.size(), 24u);
  for (std::size_t j = 0; j < p.structure.subsystems.size(); ++j)
    EXPECT_TRUE(p.structure.IsTree(static_cast<int>(j)));
  int inter = 0;  // contacts whose blocks sit in two subsystems
  std::vector<std::vector<int>> subs(p.num_constraints());
  for (const Structure::Block& b : p.structure.blocks)
    subs[b.constraint].push_back(p.structure.bodies[b.body].subsystem);
  for (int i = 0; i < p.num_constraints(); ++i)
    inter += subs[i].size() == 2 && subs[i][0] != subs[i][1];
  EXPECT_GE(inter, 10);
}

struct SubAdmmCase {
  const char* label;
  const char* solver;
  const char* settings;
  bool articulated;
};

class SubAdmmOnManufactured : public ::testing::TestWithParam<SubAdmmCase> {};

// Acceptance: res004 ≤ 1e-8 on every structured manufactured problem (10 seeds), λ close to the
// exact λ*.
TEST_P(SubAdmmOnManufactured, ReachesTolerance) {
  const SubAdmmCase& c = GetParam();
  const SolverEntry& e = FindSolver(c.solver);
  const SolverJob job{&e, Settings::Parse(c.solver, e.settings, ParseKeyValues(c.settings))};
  RunOptions opt;
  opt.budget.iters = 20000;
  opt.budget.tol = 1e-8;
  int reached = 0, most = 0, unique = 0;
  double worst_err = 0.0;
  for (int k = 0; k < 10; ++k) {
    ManufacturedOptions o =
        c.articulated ? testing::TreeOptions(300 + k) : testing::AcceptanceOptions(100 + k);
    const ContactProblem p = MakeManufacturedProblem(o, fmt::format("m{}", k));
    const RunRecord r = RunOne(p, Evaluator(p), job, opt, nullptr, 0);
    reached += r.status == Outcome::kConverged;
    most = std::max(most, r.iterations);
    // λ* is the only solution only if J has full row rank; a tree family draw can miss it by one
    // row (seeds 308, 309: rank 105 of 106), and there any λ + null(Jᵀ) solves it too.
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Eigen::MatrixXd(p.J.transpose()));
    qr.setThreshold(1e-10);
    if (qr.rank() < p.J.rows()) continue;
    ++unique;
    worst_err = std::max(worst_err, r.lambda_err);
  }
  std::printf(
      "%-24s res004 <= 1e-8 on %d/10, at most %d iterations, worst |λ−λ*|/|λ*| %.2e "
      "over the %d with J of full row rank\n",
      c.label, reached, most, worst_err, unique);
  EXPECT_EQ(reached, 10);
  EXPECT_GE(unique, 8);
  EXPECT_LE(worst_err, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(
    All, SubAdmmOnManufactured,
    ::testing::Values(
        SubAdmmCase{"subadmm_trees", "subadmm", "", true},
        SubAdmmCase{"subadmm_trees_aba", "subadmm", "factorization=aba", true},
        SubAdmmCase{"subadmm_trees_bodies", "subadmm", "apply=bodies;joint_rows=body", true},
        SubAdmmCase{"subadmm_trees_dense", "subadmm", "factorization=dense", true},
        SubAdmmCase{"subadmm_rigid", "subadmm", "", false},
        SubAdmmCase{"nobody_trees", "subadmm-nobody", "", true},
        SubAdmmCase{"nobody_trees_density", "subadmm-nobody", "beta_rule=density", true},
        SubAdmmCase{"nobody_rigid", "subadmm-nobody", "", false}),
    [](const auto& info) { return std::string(info.param.label); });

// The two ways of applying J_s and J_sᵀ (through body twists and the tree, or through each
// slack's joint-space rows in column pairs) are the same operator: the iterates agree to
// rounding. The draws include subsystems with an odd dof count (the rows' last pair overlaps).
TEST(SubAdmm, RowsAndBodiesApplyTheSameOperator) {
  const SolverEntry& e = FindSolver("subadmm");
  RunOptions opt;
  opt.budget.iters = 40;
  int odd = 0;
  for (int k = 0; k < 3; ++k) {
    ManufacturedOptions o = testing::TreeOptions(320 + k);
    o.bodies_per_subsystem = 4 + k % 2;  // a floating root and 3 or 4 joints: 9 or 10 dofs
    const ContactProblem p = MakeManufacturedProblem(o, "t");
    for (const Structure::Subsystem& sub : p.structure.subsystems) odd += sub.dof_count % 2;
    const Evaluator ev(p);
    WarmStart rows, bodies;
    for (auto [apply, out] : {std::pair{"rows", &rows}, std::pair{"bodies", &bodies}}) {
      const SolverJob job{
          &e, Settings::Parse("subadmm", e.settings, {{"apply", apply}, {"adaptive", "0"}})};
      const RunRecord r = RunOne(p, ev, job, opt, nullptr, 0, out);
      ASSERT_EQ(r.status, Outcome::kMaxIterations) << apply << ": " << r.message;
    }
    EXPECT_LE((rows.lambda - bodies.lambda).norm(), 1e-9 * bodies.lambda.norm()) << k;
    EXPECT_LE((rows.v - bodies.v).norm(), 1e-9 * bodies.v.norm()) << k;
  }
  EXPECT_GT(odd, 0);
}

// Without a structure layer there are no subsystems: not applicable, with the reason.
TEST(SubAdmm, NeedsTheStructureLayer) {
  ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(1), "m");
  p.structure = {};
  for (const char* name : {"subadmm", "subadmm-nobody"}) {
    const SolverEntry& e = FindSolver(name);
    const SolverJob job{&e, Settings::Parse(name, e.settings, {})};
    RunOptions opt;
    opt.budget.iters = 5;
    const RunRecord r = RunOne(p, Evaluator(p), job, opt, nullptr, 0);
    EXPECT_EQ(r.status, Outcome::kNotApplicable) << name;
    EXPECT_NE(r.message.find("structure"), std::string::npos) << r.message;
  }
}

// The articulated-body factorization needs A_j to be the bodies' composite inertia.
TEST(SubAdmm, AbaRefusesAMassMatrixItCannotReproduce) {
  ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(2), "t");
  p.A.coeffRef(0, 0) += 1.0;  // armature-like extra term on one dof
  const SolverEntry& e = FindSolver("subadmm");
  RunOptions opt;
  opt.budget.iters = 5;
  const SolverJob aba{&e, Settings::Parse("subadmm", e.settings, {{"factorization", "aba"}})};
  const RunRecord r = RunOne(p, Evaluator(p), aba, opt, nullptr, 0);
  EXPECT_EQ(r.status, Outcome::kNotApplicable);
  EXPECT_NE(r.message.find("composite inertia"), std::string::npos) << r.message;
  // CRBA keeps the difference as a correction and still solves the problem.
  const SolverJob crba{&e, Settings::Parse("subadmm", e.settings, {})};
  opt.budget.iters = 20000;
  opt.budget.tol = 1e-8;
  EXPECT_EQ(RunOne(p, Evaluator(p), crba, opt, nullptr, 0).status, Outcome::kConverged);
}

TEST(SubAdmm, NonFiniteInputDivergesWithoutCrashing) {
  ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(3), "t");
  p.b[3] = std::numeric_limits<double>::quiet_NaN();
  for (const char* name : {"subadmm", "subadmm-nobody"}) {
    const SolverEntry& e = FindSolver(name);
    const SolverJob job{&e, Settings::Parse(name, e.settings, {})};
    RunOptions opt;
    opt.budget.iters = 10;
    EXPECT_EQ(RunOne(p, Evaluator(p), job, opt, nullptr, 0).status, Outcome::kDiverged) << name;
  }
}

}  // namespace
}  // namespace ncp
