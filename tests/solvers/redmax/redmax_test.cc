// redmax (003 §3–4): revolute chains jointed to the world, tied by soft couplings (maximal
// springs) and optionally closed by a hard coupling (6 bilateral rows); nothing touches.
//   * the projected block-Jacobi preconditioner equals its definition 003 eq. (3);
//   * with springs to the world only, P = A' and PCG converges in one iteration (003 §3, BRIDGE);
//   * pcg-pbj, cholmod and dense agree and solve the problem (res004, bilateral rows);
//   * refusals: contact / unilateral rows, trees that do not match A, bad settings.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "harness/metrics/evaluator.h"
#include "problems/physics/system.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/common/body_trees.h"
#include "solvers/common/projected_block_jacobi.h"
#include "solvers/redmax/reduced_operator.h"
#include "solvers/redmax/tree_operator.h"
#include "solvers/registry.h"
#include "tests/expect_error.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

using namespace physics;

constexpr double kLink = 0.3;

// A chain of n revolute links along x (joint axes y, z, x in turn, so that the chain moves in
// 3D), its root jointed to the world at `base`.
std::shared_ptr<ArticulatedModel> ChainModel(const std::string& name, int n, const Pose& base) {
  auto m = std::make_shared<ArticulatedModel>();
  m->name = name;
  const Vec3 axes[3] = {Vec3::UnitY(), Vec3::UnitZ(), Vec3::UnitX()};
  for (int i = 0; i < n; ++i) {
    Link k;
    k.name = name + std::to_string(i);
    k.parent = i - 1;
    k.joint = JointType::kRevolute;
    k.axis = axes[i % 3];
    k.parent_to_joint = i == 0 ? base : Pose(Eigen::Translation3d(kLink, 0, 0));
    k.mass = 1.0 + 0.1 * i;
    k.com = Vec3(0.5 * kLink, 0, 0);
    const double a = kLink, b = 0.05, c = 0.04;  // box a × b × c
    k.inertia = (k.mass / 12.0) * Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal();
    m->links.push_back(k);
  }
  m->Finalize();
  return m;
}

enum class Springs { kToWorld, kBetweenBodies };

// Two chains of 5 links; soft couplings either each from one body to the world frame, or
// between bodies (within a chain and across the chains) plus one to the world; `loop`: the two
// tips welded by a hard coupling at a point where they coincide (6 bilateral rows, e = 0).
ContactProblem ChainsProblem(Springs springs, bool loop) {
  StepOptions opt;
  opt.dt = 0.01;
  MultibodySystem s(opt);
  const int n = 5;
  Eigen::VectorXd q1(n), q2(n), v1(n), v2(n);
  q1 << 0.3, -0.2, 0.4, 0.1, -0.3;
  q2 << -0.1, 0.25, -0.35, 0.2, 0.15;
  v1 << 0.5, -0.1, 0.2, 0.0, 0.3;
  v2 << -0.2, 0.4, 0.1, -0.3, 0.1;
  const int c1 = s.AddInstance(ChainModel("a", n, Pose::Identity()), q1, v1);
  const int c2 = s.AddInstance(ChainModel("b", n, Pose(Eigen::Translation3d(0, 0.4, 0.1))), q2, v2);
  const int b1 = s.instances()[c1].first_body, b2 = s.instances()[c2].first_body;
  Vec6 K, D;
  K << 2e4, 1e4, 3e4, 50, 80, 20;
  D << 30, 20, 10, 0.5, 0.2, 0.3;
  auto spring = [&](int a, int b, double scale) {
    Coupling c;
    c.body_a = a, c.body_b = b;
    c.frame_a = Pose(Eigen::Translation3d(0.5 * kLink, 0.02, 0));
    c.frame_b = Pose(Eigen::Translation3d(0.1, 0, -0.03));
    c.stiffness = scale * K, c.damping = scale * D;
    s.AddCoupling(c);
  };
  if (springs == Springs::kToWorld) {
    spring(-1, b1 + 2, 1.0);
    spring(-1, b1 + 4, 0.5);
    spring(-1, b2 + 3, 2.0);
  } else {
    spring(b1 + 1, b1 + 3, 1.0);  // within a chain
    spring(b1 + 2, b2 + 2, 0.5);  // across the chains
    spring(b2 + 0, b1 + 4, 2.0);
    spring(-1, b2 + 4, 1.0);  // and to the world
  }
  s.Finalize();
  if (loop) {
    Coupling c;
    c.body_a = b1 + n - 1, c.body_b = b2 + n - 1;
    c.frame_a = Pose(Eigen::Translation3d(kLink, 0, 0));
    // Frame b is frame a's world pose seen from body b: the two coincide now.
    c.frame_b = s.BodyPose(c.body_b).inverse() * s.BodyPose(c.body_a) * c.frame_a;
    c.hard = true;
    s.AddCoupling(c);
  }
  return s.BuildProblem();
}

std::vector<int> ConstraintsOf(const ContactProblem& p, ConstraintType t) {
  std::vector<int> out;
  for (int i = 0; i < p.num_constraints(); ++i)
    if (p.constraints[i].type == t) out.push_back(i);
  return out;
}

// P = A + Σ_soft d_i Σ_b (J_{i,b} J_b)ᵀ (J_{i,b} J_b), from the structure layer's matrices.
Eigen::MatrixXd PreconditionerByDefinition(const ContactProblem& p) {
  const int n = p.num_dofs();
  Eigen::MatrixXd P = Eigen::MatrixXd(p.A);
  const Structure& st = p.structure;
  for (const Structure::Block& blk : st.blocks) {
    const Constraint& c = p.constraints[blk.constraint];
    if (c.type != ConstraintType::kSoft) continue;
    const Structure::Body& body = st.bodies[blk.body];
    const Structure::Subsystem& sub = st.subsystems[body.subsystem];
    Eigen::MatrixXd Jb = Eigen::MatrixXd::Zero(6, n);
    Jb.middleCols(sub.dof_begin, sub.dof_count) = body.jacobian;
    const Eigen::MatrixXd row = blk.jacobian * Jb;
    P += c.damping * row.transpose() * row;
  }
  return P;
}

struct Solved {
  Status setup = Status::kFailed;
  std::string message;
  Vec v, lambda;
  std::vector<std::pair<std::string, double>> info;
  SolverStats stats;
};

Solved SolveRedmax(const ContactProblem& p, const std::map<std::string, std::string>& given,
                   int iters) {
  const SolverEntry& e = FindSolver("redmax");
  std::unique_ptr<Solver> s = e.make();
  Solved r;
  r.setup = s->Setup(p, Settings::Parse("redmax", e.settings, given), nullptr);
  r.message = s->message();
  if (r.setup != Status::kRunning) return r;
  for (int k = 0; k < iters; ++k) {
    const Status st = s->Iterate();
    EXPECT_EQ(st, Status::kRunning) << s->message();
    if (st != Status::kRunning) break;
  }
  s->Current(r.v, r.lambda);
  r.info = s->Info();
  r.stats = s->Stats();
  return r;
}

double InfoValue(const Solved& r, const std::string& key) {
  for (const auto& [k, v] : r.info)
    if (k == key) return v;
  ADD_FAILURE() << "no info " << key;
  return -1;
}

// Tolerance 1e-12 relative: both sides are the same sums of 6×6 products, in another order.
TEST(Redmax, PreconditionerEqualsItsDefinition) {
  const ContactProblem p = ChainsProblem(Springs::kBetweenBodies, false);
  const std::vector<int> soft = ConstraintsOf(p, ConstraintType::kSoft);
  ASSERT_EQ(soft.size(), 24u);
  BodyTrees trees;
  std::string why;
  ASSERT_TRUE(trees.Init(p, &why)) << why;
  ProjectedBlockJacobi pbj;
  pbj.Init(p, soft, trees);
  ASSERT_TRUE(pbj.Factorize());
  const Eigen::MatrixXd P = PreconditionerByDefinition(p);
  // The springs between bodies make A' differ from P (else the check would be trivial).
  ReducedOperator op;
  op.Init(p, soft);
  const Eigen::MatrixXd Af = Eigen::MatrixXd(op.Assemble());
  const double scale = P.cwiseAbs().maxCoeff();
  EXPECT_GT((Af - P).cwiseAbs().maxCoeff(), 1e-3 * scale);
  // P through the trees (composite-rigid-body assembly on the solver's H_b).
  const double assembled = (pbj.Assembled() - P).cwiseAbs().maxCoeff() / scale;
  // P⁻¹ through the articulated-body recursion, on every unit vector, against a dense inverse.
  const int n = p.num_dofs();
  Eigen::MatrixXd X(n, n);
  Vec e(n), z(n);
  for (int k = 0; k < n; ++k) {
    e.setZero();
    e[k] = 1.0;
    pbj.Apply(e, z);
    X.col(k) = z;
  }
  const Eigen::MatrixXd Pinv = P.llt().solve(Eigen::MatrixXd::Identity(n, n));
  const double inverse = (X - Pinv).cwiseAbs().maxCoeff() / Pinv.cwiseAbs().maxCoeff();
  const double backward = (P * X - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff() /
                          (scale * X.cwiseAbs().maxCoeff());
  std::printf(
      "projected block-Jacobi, %d dofs: assembled %.2e, inverse %.2e, |P X - I| %.2e "
      "(relative)\n",
      n, assembled, inverse, backward);
  EXPECT_LE(assembled, 1e-12);
  EXPECT_LE(inverse, 1e-12);
  EXPECT_LE(backward, 1e-12);
}

// PCG's product with A' through the bodies equals the sparse product (1e-12 relative: the same
// sums in another order), and the solver uses it on these chains.
TEST(Redmax, TreeOperatorEqualsTheSparseProduct) {
  const ContactProblem p = ChainsProblem(Springs::kBetweenBodies, true);
  const std::vector<int> soft = ConstraintsOf(p, ConstraintType::kSoft);
  BodyTrees trees;
  std::string why;
  ASSERT_TRUE(trees.Init(p, &why)) << why;
  TreeOperator tree;
  ASSERT_TRUE(tree.Init(p, soft, trees, &why)) << why;
  ReducedOperator op;
  op.Init(p, soft);
  const int n = p.num_dofs();
  const Eigen::MatrixXd Af = Eigen::MatrixXd(op.Assemble());
  Vec e(n), y(n), ys(n);
  double worst = 0.0;
  for (int k = 0; k < n; ++k) {
    e.setZero();
    e[k] = 1.0;
    tree.Apply(e, y);
    op.Apply(e, ys);
    worst =
        std::max({worst, (y - ys).cwiseAbs().maxCoeff(), (y - Af.col(k)).cwiseAbs().maxCoeff()});
  }
  EXPECT_LE(worst, 1e-12 * Af.cwiseAbs().maxCoeff());
  const Solved r = SolveRedmax(p, {}, 1);
  ASSERT_EQ(r.setup, Status::kRunning) << r.message;
  EXPECT_EQ(InfoValue(r, "tree_operator"), 1.0);
}

// 003 §3: with every spring tied to a stationary body the preconditioner is A' itself, so PCG
// ends after one iteration (the first step is the exact solution up to rounding).
TEST(Redmax, PcgConvergesInOneIterationWithSpringsToTheWorld) {
  const ContactProblem p = ChainsProblem(Springs::kToWorld, false);
  const std::vector<int> soft = ConstraintsOf(p, ConstraintType::kSoft);
  BodyTrees trees;
  std::string why;
  ASSERT_TRUE(trees.Init(p, &why)) << why;
  ProjectedBlockJacobi pbj;
  pbj.Init(p, soft, trees);
  ReducedOperator op;
  op.Init(p, soft);
  const Eigen::MatrixXd Af = Eigen::MatrixXd(op.Assemble());
  EXPECT_LE((pbj.Assembled() - Af).cwiseAbs().maxCoeff(), 1e-12 * Af.cwiseAbs().maxCoeff());
  const Solved r = SolveRedmax(p, {{"pcg_tol", "1e-10"}}, 1);
  ASSERT_EQ(r.setup, Status::kRunning) << r.message;
  EXPECT_EQ(InfoValue(r, "pcg_iterations_last"), 1.0);
  EXPECT_EQ(r.stats.inner_iterations, 1);
}

// 003 §6's BRIDGE with rigid towers: every cable ends on the world, so PCG takes one iteration
// per solve. The straight deck's pin row along the deck is zero at rest (no hinge about y moves
// the far end along x): its Schur column takes no iteration and S has rank 1. So 2 in all: the
// pin's vertical column in setup, then the step.
TEST(Redmax, RigidBridgePcgTakesOneIterationPerSolve) {
  const SceneEntry& e = *FindScene("bridge");
  Scene sc = e.build(SceneParams(e, ParseKeyValues("pieces=16")), 1);
  const ContactProblem p = sc.stepped().BuildProblem();
  const Solved r = SolveRedmax(p, {{"pcg_tol", "1e-10"}}, 1);
  ASSERT_EQ(r.setup, Status::kRunning) << r.message;
  EXPECT_EQ(InfoValue(r, "pcg_iterations_last"), 1.0);
  EXPECT_EQ(r.stats.inner_iterations, 2);
  EXPECT_EQ(InfoValue(r, "schur_rows"), 2.0);
  EXPECT_EQ(InfoValue(r, "schur_rank"), 1.0);
  EXPECT_LE(Evaluator(p).Evaluate(r.v, r.lambda)[Metric::kRes004], 1e-8);
}

// The three linear solvers give the same v (1e-8 relative) and solve the problem: res004 ≤ 1e-6
// and the loop-closure rows hold to 1e-8. PCG (default pcg_tol 1e-6) runs 3 outer iterations of
// refinement; the direct routes are exact after one.
TEST(Redmax, LinearSolversAgreeAndSolve) {
  for (const bool loop : {false, true}) {
    SCOPED_TRACE(loop ? "with a loop closure" : "without a loop closure");
    const ContactProblem p = ChainsProblem(Springs::kBetweenBodies, loop);
    const std::vector<int> bil = ConstraintsOf(p, ConstraintType::kBilateral);
    ASSERT_EQ(bil.size(), loop ? 6u : 0u);
    const Evaluator ev(p);
    const Solved dense = SolveRedmax(p, {{"linear", "dense"}}, 1);
    ASSERT_EQ(dense.setup, Status::kRunning) << dense.message;
    for (const std::string linear : {"pcg-pbj", "cholmod", "dense"}) {
      SCOPED_TRACE(linear);
      const Solved r = SolveRedmax(p, {{"linear", linear}}, linear == "pcg-pbj" ? 3 : 1);
      ASSERT_EQ(r.setup, Status::kRunning) << r.message;
      const double dv = (r.v - dense.v).norm() / dense.v.norm();
      const double res = ev.Evaluate(r.v, r.lambda)[Metric::kRes004];
      double closure = 0.0;
      for (int i : bil) {
        const int row = p.constraints[i].row;
        closure = std::max(closure, std::abs(p.J.row(row).dot(r.v) + p.e[row]));
      }
      std::printf(
          "redmax %s%s: |v - v_dense|/|v_dense| %.2e, res004 %.2e, |G v + e|inf %.2e, "
          "PCG iterations %d\n",
          linear.c_str(), loop ? " (loop)" : "", dv, res, closure, r.stats.inner_iterations);
      EXPECT_LE(dv, 1e-8);
      EXPECT_LE(res, 1e-6);
      EXPECT_LE(closure, 1e-8);
    }
  }
}

// Bilateral rows and no soft row, on articulated trees: pcg-pbj has no soft-row blocks to check
// against J (the check took the largest |J_s x| of no rows, and crashed) and solves as the
// direct routes do, to the manufactured solution (relative 1e-6 in λ and v).
TEST(Redmax, BilateralRowsWithoutSoftRowsSolve) {
  ManufacturedOptions o = testing::TreeOptions(5);
  o.num_contacts = o.num_unilateral = o.num_soft = 0;
  o.num_bilateral = 4;
  const ContactProblem p = MakeManufacturedProblem(o, "bilateral_only");
  ASSERT_EQ(ConstraintsOf(p, ConstraintType::kSoft).size(), 0u);
  ASSERT_EQ(ConstraintsOf(p, ConstraintType::kBilateral).size(), 4u);
  ASSERT_FALSE(p.structure.bodies.empty());
  ASSERT_TRUE(p.reference.has_value());
  for (const std::string linear : {"pcg-pbj", "cholmod", "dense"}) {
    SCOPED_TRACE(linear);
    const Solved r = SolveRedmax(p, {{"linear", linear}}, 3);
    ASSERT_EQ(r.setup, Status::kRunning) << r.message;
    EXPECT_LE((r.lambda - p.reference->lambda).norm(), 1e-6 * p.reference->lambda.norm());
    EXPECT_LE((r.v - p.reference->v).norm(), 1e-6 * p.reference->v.norm());
  }
}

// A second outer iteration refines an inexact PCG solution (iterative refinement).
TEST(Redmax, SecondIterationRefines) {
  const ContactProblem p = ChainsProblem(Springs::kBetweenBodies, true);
  const Evaluator ev(p);
  const Solved one = SolveRedmax(p, {{"pcg_tol", "1e-3"}}, 1);
  const Solved two = SolveRedmax(p, {{"pcg_tol", "1e-3"}}, 2);
  ASSERT_EQ(one.setup, Status::kRunning) << one.message;
  const double r1 = ev.Evaluate(one.v, one.lambda)[Metric::kRes004];
  const double r2 = ev.Evaluate(two.v, two.lambda)[Metric::kRes004];
  std::printf("redmax pcg_tol 1e-3: res004 %.2e after 1 iteration, %.2e after 2\n", r1, r2);
  EXPECT_LT(r2, 1e-2 * r1);
  EXPECT_GT(two.stats.inner_iterations, one.stats.inner_iterations);
}

TEST(Redmax, PcgMaxItersFailsWithTheFigures) {
  const ContactProblem p = ChainsProblem(Springs::kBetweenBodies, false);
  const SolverEntry& e = FindSolver("redmax");
  std::unique_ptr<Solver> s = e.make();
  ASSERT_EQ(
      s->Setup(
          p, Settings::Parse("redmax", e.settings, {{"pcg_max_iters", "1"}, {"pcg_tol", "1e-12"}}),
          nullptr),
      Status::kRunning)
      << s->message();
  EXPECT_EQ(s->Iterate(), Status::kFailed);
  EXPECT_NE(s->message().find("pcg_max_iters = 1"), std::string::npos) << s->message();
  EXPECT_NE(s->message().find("pcg_tol"), std::string::npos) << s->message();
}

TEST(Redmax, NotApplicableWithContactOrUnilateralRows) {
  for (const ConstraintType t : {ConstraintType::kContact, ConstraintType::kUnilateral}) {
    const ContactProblem p = testing::OnlyType(t);
    const Solved r = SolveRedmax(p, {}, 0);
    EXPECT_EQ(r.setup, Status::kNotApplicable);
    EXPECT_NE(r.message.find(t == ConstraintType::kContact ? "36 contact rows" : "12 unilateral"),
              std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("only soft and bilateral"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find('\n'), std::string::npos);
  }
  const Solved local = SolveRedmax(testing::OneContactLocalProblem(), {}, 0);
  EXPECT_EQ(local.setup, Status::kNotApplicable);
  EXPECT_NE(local.message.find("global form"), std::string::npos) << local.message;
}

// pcg-pbj needs trees whose A is the bodies' inertia; the direct routes do not.
TEST(Redmax, PcgNeedsTreesMatchingA) {
  ContactProblem p = ChainsProblem(Springs::kBetweenBodies, false);
  p.A.coeffRef(2, 2) += 1.0;
  const Solved pcg = SolveRedmax(p, {}, 0);
  EXPECT_EQ(pcg.setup, Status::kNotApplicable);
  EXPECT_NE(pcg.message.find("differs from the bodies' inertia"), std::string::npos) << pcg.message;
  EXPECT_EQ(SolveRedmax(p, {{"linear", "cholmod"}}, 1).setup, Status::kRunning);
  // Soft rows without a structure layer: only the direct routes apply.
  const ContactProblem soft = testing::OnlyType(ConstraintType::kSoft);
  ContactProblem bare = soft;
  bare.structure = {};
  const Solved none = SolveRedmax(bare, {}, 0);
  EXPECT_EQ(none.setup, Status::kNotApplicable);
  EXPECT_NE(none.message.find("structure layer"), std::string::npos) << none.message;
  const Solved chol = SolveRedmax(bare, {{"linear", "cholmod"}}, 1);
  ASSERT_EQ(chol.setup, Status::kRunning) << chol.message;
  // A manufactured problem's exact solution: res004 at rounding level.
  EXPECT_LE(Evaluator(bare).Evaluate(chol.v, chol.lambda)[Metric::kRes004], 1e-8);
}

TEST(Redmax, BadSettingsAreRefused) {
  const SolverEntry& e = FindSolver("redmax");
  testing::ExpectError(
      [&] {
        Settings::Parse("redmax", e.settings, {{"pcg_tol", "-1"}});
      },
      {"redmax.pcg_tol", "-1"});
  testing::ExpectError(
      [&] {
        Settings::Parse("redmax", e.settings, {{"linear", "foo"}});
      },
      {"redmax.linear", "foo", "pcg-pbj"});
  testing::ExpectError(
      [&] {
        Settings::Parse("redmax", e.settings, {{"pcg_max_iters", "0"}});
      },
      {"redmax.pcg_max_iters", "0"});
}

}  // namespace
}  // namespace ncp
