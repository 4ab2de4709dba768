// DeformableSystem: the step of 002:9 (free fall is exact), nodal contact rows with the obstacle's
// surface velocity in e, ties between duplicated nodes, the structure layer, and a soft_mat
// gripper that really lifts the mat's edge by friction.
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cmath>
#include <cstdio>
#include <set>

#include "common/error.h"
#include "harness/runner.h"
#include "problems/model/validate.h"
#include "problems/physics/fem/deformable_system.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp::physics {
namespace {

const FemMaterial kBlockRubber{1e5, 0.3, 1000};

KinematicState Fixed(const Pose& pose, const Vec3& linear = Vec3::Zero()) {
  KinematicState s;
  s.pose = pose;
  s.linear = linear;
  return s;
}

Vec SolveFree(const ContactProblem& p) {
  Eigen::SimplicialLDLT<SpMat> ldlt(p.A);
  return ldlt.solve(p.b);
}

TEST(DeformableSystem, FreeFallStepIsExact) {
  StepOptions o;
  o.dt = 0.01;
  DeformableSystem s(o);
  s.AddBody(BoxTetMesh(Vec3(0, 0, 1), Vec3(0.1, 0.1, 0.1), {2, 2, 2}), kBlockRubber, 0.5);
  s.AddPlane(Vec3::UnitZ(), 0.0, 0.5);
  for (int k = 0; k < 3; ++k) {
    const ContactProblem p = s.BuildProblem();
    EXPECT_EQ(p.num_constraints(), 0);
    const Vec v = SolveFree(p);
    double worst = 0;
    for (int i = 0; i < s.num_nodes(); ++i)
      worst = std::max(worst, (v.segment<3>(3 * i) - (k + 1) * o.dt * o.gravity).norm());
    EXPECT_LT(worst, 1e-12) << "step " << k;
    s.Advance(v);
  }
}

TEST(DeformableSystem, ContactRowsAreNodalWithObstacleVelocity) {
  StepOptions o;
  o.dt = 0.01;
  DeformableSystem s(o);
  s.AddBody(BoxTetMesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), {2, 2, 2}), kBlockRubber, 0.5);
  s.AddPlane(Vec3::UnitZ(), 0.0, 0.5);  // touches the 9 bottom nodes
  const Vec3 vbox(0.3, -0.2, 0.1);
  // A box moving with vbox whose −x face is 1 mm from the body's x = 0.1 face (9 nodes).
  s.AddBox(Vec3(0.05, 0.2, 0.2), 0.5,
           [&](double) { return Fixed(Pose(Eigen::Translation3d(0.151, 0.05, 0.05)), vbox); });
  std::vector<ContactPoint> contacts;
  const ContactProblem p = s.BuildProblem(&contacts);
  ValidateOptions vo;
  vo.structure_tol = 1e-12;
  EXPECT_EQ(Validate(p, vo), "");
  ASSERT_EQ(p.structure.subsystems.size(), 1u);
  EXPECT_EQ(p.structure.subsystems[0].kind, "fem");
  EXPECT_EQ(p.structure.subsystems[0].dof_count, 81);
  // 9 floor nodes + 9 box nodes, one contact each (the 3 bottom nodes on x = 0.1 touch both: the
  // deeper obstacle, the floor at gap 0, wins).
  EXPECT_EQ(p.num_contacts(), 15);
  int box = 0;
  for (int i = 0; i < p.num_constraints(); ++i) {
    const int row = p.constraints[i].row;
    std::set<int> nodes;
    for (int k = 0; k < p.J.outerSize(); ++k)
      for (SpMat::InnerIterator it(p.J, k); it; ++it)
        if (it.row() >= row && it.row() < row + 3) nodes.insert(static_cast<int>(it.col()) / 3);
    EXPECT_EQ(nodes.size(), 1u) << "contact " << i;
    const ContactPoint& c = contacts[i];
    if (c.geom_a != 1) continue;
    ++box;
    EXPECT_NEAR(c.gap, 0.001, 1e-12);
    const Mat3 F = ContactFrame(c.normal);
    EXPECT_NEAR(c.normal.x(), -1.0, 1e-12);
    const Vec3 ef = -(F * vbox);
    EXPECT_NEAR(p.e[row], StabilizeGap(0.001, o) + ef[0], 1e-12);
    EXPECT_NEAR(p.e[row + 1], ef[1], 1e-12);
    EXPECT_NEAR(p.e[row + 2], ef[2], 1e-12);
  }
  EXPECT_EQ(box, 6);
}

TEST(DeformableSystem, TiedPiecesFallAsOneBody) {
  StepOptions o;
  o.dt = 0.01;
  DeformableSystem s(o);
  const std::array<int, 3> cells = {1, 1, 1};
  s.AddBody(BoxTetMesh(Vec3(0, 0, 1), Vec3(0.1, 0.1, 0.1), cells), kBlockRubber, 0.5);
  s.AddBody(BoxTetMesh(Vec3(0.1, 0, 1), Vec3(0.1, 0.1, 0.1), cells), kBlockRubber, 0.5);
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 1; ++j) s.AddTie(0, BoxNode(cells, 1, j, k), 1, BoxNode(cells, 0, j, k));
  const ContactProblem p = s.BuildProblem();
  EXPECT_EQ(p.num_constraints(), 12);
  ASSERT_EQ(p.structure.subsystems.size(), 2u);
  EXPECT_EQ(p.structure.subsystems[1].dof_begin, 24);
  ValidateOptions vo;
  EXPECT_EQ(Validate(p, vo), "");
  // The free solution already satisfies the ties (both pieces fall alike): J v + e = 0.
  const Vec v = SolveFree(p);
  EXPECT_LT((p.J * v + p.e).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(DeformableSystem, BadOptionsAreRefused) {
  StepOptions o;
  o.theta = 0.5;
  EXPECT_THROW(DeformableSystem{o}, std::runtime_error);
  DeformableSystem s;
  EXPECT_THROW(s.AddBody(BoxTetMesh(Vec3::Zero(), Vec3::Ones(), {1, 1, 1}), {1e5, 0.5, 1000}, 0.5),
               std::runtime_error);
  EXPECT_THROW(BoxTetMesh(Vec3::Zero(), Vec3(1, 0, 1), {1, 1, 1}), std::runtime_error);
  EXPECT_THROW(s.BuildProblem(), std::runtime_error);
}

// Steps a registered scene with admm-full (200 iterations per step) and returns its system.
DeformableSystem& StepScene(Scene& sc, int steps) {
  DeformableSystem& s = *sc.deformable;
  const std::vector<SolverJob> jobs = MakeSolverJobs({"admm-full"}, {});
  RunOptions ro;
  ro.budget.iters = 200;
  for (int k = 0; k < steps; ++k) {
    const ContactProblem p = s.BuildProblem();
    const Evaluator ev(p);
    WarmStart sol;
    RunOne(p, ev, jobs[0], ro, nullptr, 0, &sol);
    EXPECT_EQ(sol.v.size(), s.num_dofs());
    if (sol.v.size() != s.num_dofs()) break;
    s.Advance(sol.v);
  }
  return s;
}

// soft_mat at a small size: after the pinch and the lift (0.7 s) the gripped edge hangs ~12 cm
// up, held by friction only; the far edge still lies on the floor.
TEST(DeformableSystem, SoftMatGripperLiftsTheEdge) {
  const SceneEntry& e = *FindScene("soft_mat");
  Scene sc = e.build(SceneParams(e, {{"size", "0.25"}}), 1);
  const Vec x0 = sc.deformable->positions();
  const int steps = static_cast<int>(0.7 / sc.deformable->options().dt);
  const DeformableSystem& s = StepScene(sc, steps);
  double edge = 1e9, far = -1e9;
  const Vec& x = s.positions();
  for (int i = 0; i < s.num_nodes(); ++i) {
    if (x0[3 * i] < -0.25 + 1e-9) edge = std::min(edge, x[3 * i + 2]);  // the gripped edge
    if (x0[3 * i] > 0.25 - 1e-9) far = std::max(far, x[3 * i + 2]);     // the opposite edge
  }
  std::printf(
      "soft_mat size 0.25 after %d steps: lowest gripped-edge node z = %.3f m, highest "
      "far-edge node z = %.3f m\n",
      steps, edge, far);
  EXPECT_GT(edge, 0.09);
  EXPECT_LT(far, 0.03);
}

// The ball mesh: conforming cells inside the radius, every tet positive, the surface nodes on
// the ball's outer layer (within a cell's diagonal of the radius) and the interior ones deeper.
TEST(DeformableSystem, BallMeshIsAConformingSolidBall) {
  const double r = 0.05;
  const int n = 14;
  const TetMesh m = BallTetMesh(Vec3(0, 0, r), r, n);
  EXPECT_EQ(m.tets.size() % 5, 0u);
  double volume = 0.0;
  for (const auto& t : m.tets) {
    const double v = TetVolume(m.nodes, t);
    EXPECT_GT(v, 0.0);
    volume += v;
  }
  const double ball = 4.0 / 3.0 * M_PI * r * r * r, cell = 2 * r / n;
  EXPECT_NEAR(volume, ball, 0.1 * ball);  // a voxel ball: within 10% of the sphere
  std::vector<char> on(m.nodes.size(), 0);
  for (int v : m.surface) on[v] = 1;
  for (std::size_t v = 0; v < m.nodes.size(); ++v) {
    const double d = (m.nodes[v] - Vec3(0, 0, r)).norm();
    if (on[v])
      EXPECT_GT(d, r - 2 * std::sqrt(3.0) * cell) << v;
    else
      EXPECT_LT(d, r) << v;
  }
  EXPECT_THROW(BallTetMesh(Vec3::Zero(), 0.0, 14), Error);
  EXPECT_THROW(BallTetMesh(Vec3::Zero(), 1.0, 1), Error);
}

// soft_ball at a small size: the fingers close (0.4 s) and lift 8 cm (to 1.2 s); at 1.4 s the
// ball hangs clear of the floor, held by friction only.
TEST(DeformableSystem, SoftBallIsLiftedByItsFingers) {
  const SceneEntry& e = *FindScene("soft_ball");
  Scene sc = e.build(SceneParams(e, {{"size", "0.5"}}), 1);
  const int steps = static_cast<int>(1.4 / sc.deformable->options().dt);
  const DeformableSystem& s = StepScene(sc, steps);
  double lowest = 1e9;
  const Vec& x = s.positions();
  for (int i = 0; i < s.num_nodes(); ++i) lowest = std::min(lowest, x[3 * i + 2]);
  std::printf("soft_ball size 0.5 after %d steps: lowest node z = %.3f m\n", steps, lowest);
  EXPECT_GT(lowest, 0.04);
}

// soft_mat's `layers` fixes the cells through the thickness (in-plane refinement only); 0 scales
// them with size; anything but an integer in [0, 64] is a one-line error naming the field.
TEST(DeformableSystem, SoftMatLayersSetTheThicknessCells) {
  const SceneEntry& e = *FindScene("soft_mat");
  auto nodes = [&](const char* size, const char* layers) {
    return e.build(SceneParams(e, {{"size", size}, {"layers", layers}}), 1).deformable->num_nodes();
  };
  EXPECT_EQ(nodes("1", "0"), 22 * 22 * 3);    // round(2 × 1) = 2 layers: 3 node planes
  EXPECT_EQ(nodes("1.5", "0"), 33 * 33 * 4);  // round(2 × 1.5) = 3 layers
  EXPECT_EQ(nodes("1.5", "2"), 33 * 33 * 3);  // fixed: 2 layers at any size
  EXPECT_EQ(nodes("0.5", "2"), 12 * 12 * 3);
  for (const char* bad : {"-1", "1.5", "65"}) {
    try {
      nodes("1", bad);
      ADD_FAILURE() << "layers = " << bad << " accepted";
    } catch (const Error& err) {
      EXPECT_NE(std::string(err.what()).find("soft_mat.layers"), std::string::npos) << err.what();
    }
  }
}

// fem_beam at a small size: the driven beam enters the funnel (a jammed beam buckles and its tip
// stays below 4 cm), and the part past the narrowest point is squeezed to the gap.
TEST(DeformableSystem, FemBeamIsPushedThroughTheGap) {
  const SceneEntry& e = *FindScene("fem_beam");
  Scene sc = e.build(SceneParams(e, {{"size", "0.5"}, {"pieces", "4"}}), 1);
  const Vec x0 = sc.deformable->positions();
  const int steps = 36;  // 0.6 s: the back face moves 12 cm
  const DeformableSystem& s = StepScene(sc, steps);
  const Vec& x = s.positions();
  double tip_x = -1e9, tip0 = -1e9, width = 0;
  for (int i = 0; i < s.num_nodes(); ++i) {
    tip_x = std::max(tip_x, x[3 * i]);
    tip0 = std::max(tip0, x0[3 * i]);
    if (x[3 * i] > 0.13) width = std::max(width, std::abs(x[3 * i + 1]));
  }
  std::printf(
      "fem_beam size 0.5 after %d steps: tip advanced %.4f m (back face 0.12 m), largest "
      "|y| past the narrowest point %.4f m (gap/2 = 0.0225 m, beam half-width 0.025 m)\n",
      steps, tip_x - tip0, width);
  EXPECT_GT(tip_x - tip0, 0.05);
  EXPECT_LT(width, 0.024);
}

}  // namespace
}  // namespace ncp::physics
