// MuJoCo scene peer: the MJCF of every peer scene compiles, the compiled model carries our
// masses, box sizes, friction and time step, and a short run gives finite metrics. Skipped when
// built without MuJoCo. Also: simulate reports the final body poses the peer table compares.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/simulate.h"
#include "solvers/settings.h"

#ifdef NCP_WITH_MUJOCO
#include <mujoco/mujoco.h>

#include "harness/peers/mujoco/mujoco_peer.h"
#endif

namespace ncp {
namespace {

TEST(SimulateFinalPoses, OnePosePerBodyMovedByTheRun) {
  SimulateOptions o;
  o.steps = 24;
  o.iters = 50;
  o.reference_solvers.clear();
  o.quiet = true;
  const SceneEntry& e = *FindScene("sliding_cubes");
  const SimulateResult r = Simulate(e, {{"cubes", "4"}}, 1, o);
  Scene sc = e.build(r.params, 1);
  ASSERT_EQ(static_cast<int>(r.final_poses.size()), sc.system->num_bodies());
  for (int b = 0; b < sc.system->num_bodies(); ++b) {
    const Eigen::Vector2d moved =
        (r.final_poses[b].translation() - sc.system->BodyPose(b).translation()).head<2>();
    const Eigen::Vector2d v0 = sc.system->instances()[b].v.head<2>();  // body frame = world
    // Coulomb friction stops a cube after v²/(2μg) (μ = 0.3); loose bound: 50 iterations per step.
    EXPECT_LT(moved.norm(), 2 * v0.squaredNorm() / (2 * 0.3 * 9.81) + 0.01) << "body " << b;
    if (v0.norm() < 0.5) continue;
    EXPECT_GT(moved.norm(), 0.01) << "body " << b;
    EXPECT_GT(moved.dot(v0), 0.0) << "body " << b << " moved against its initial velocity";
  }
}

struct PeerCase {
  const char* scene;
  const char* params;
};
const PeerCase kPeerCases[] = {{"vertical_stacks", "stacks=1"},
                               {"oblique_stacks", "units=1"},
                               {"sliding_cubes", "cubes=2"},
                               {"laikago_drop", "robots=1"}};

class MujocoPeer : public ::testing::TestWithParam<PeerCase> {};

#ifdef NCP_WITH_MUJOCO
Scene Build(const PeerCase& c) {
  const SceneEntry& e = *FindScene(c.scene);
  return e.build(SceneParams(e, ParseKeyValues(c.params)), 1);
}
#endif

TEST_P(MujocoPeer, CompiledModelCarriesOurMassesSizesFriction) {
#ifndef NCP_WITH_MUJOCO
  GTEST_SKIP()
      << "built without MuJoCo (libmujoco-dev not found, or NCPBENCH_MUJOCO=OFF): peer not tested";
#else
  const Scene sc = Build(GetParam());
  const physics::MultibodySystem& sys = *sc.system;
  mjModel* m = mujoco_peer::CompileMjcf(mujoco_peer::SceneToMjcf(sys, {}));
  ASSERT_NE(m, nullptr);
  EXPECT_DOUBLE_EQ(m->opt.timestep, sys.options().dt);
  EXPECT_EQ(m->opt.cone, mjCONE_ELLIPTIC);
  EXPECT_EQ(m->opt.solver, mjSOL_NEWTON);
  int checked_geoms = 0;
  for (const physics::Instance& in : sys.instances())
    for (int l = 0; l < static_cast<int>(in.model->links.size()); ++l) {
      const physics::Link& link = in.model->links[l];
      const int b = in.first_body + l;
      const int id = mj_name2id(m, mjOBJ_BODY, ("b" + std::to_string(b)).c_str());
      ASSERT_GE(id, 0) << "body " << b;
      // MuJoCo merges massless welded bodies' inertia into their parent; compare where it keeps
      // them.
      if (link.mass > 0) {
        EXPECT_NEAR(m->body_mass[id], link.mass, 1e-12 * link.mass) << "body " << b;
        const double trace =
            m->body_inertia[3 * id] + m->body_inertia[3 * id + 1] + m->body_inertia[3 * id + 2];
        EXPECT_NEAR(trace, link.inertia.trace(), 1e-9 * link.inertia.trace()) << "body " << b;
      }
      int k = 0;
      for (int g = 0; g < m->ngeom; ++g) {
        if (m->geom_bodyid[g] != id) continue;
        ASSERT_LT(k, static_cast<int>(link.geoms.size())) << "body " << b;
        const physics::Geom& ours = link.geoms[k++];
        EXPECT_DOUBLE_EQ(m->geom_friction[3 * g], ours.mu);
        if (ours.shape.type == physics::ShapeType::kBox) {
          EXPECT_EQ(m->geom_type[g], mjGEOM_BOX);
          for (int a = 0; a < 3; ++a)
            EXPECT_DOUBLE_EQ(m->geom_size[3 * g + a], ours.shape.half_extents[a]);
        }
        if (ours.shape.type == physics::ShapeType::kSphere) {
          EXPECT_EQ(m->geom_type[g], mjGEOM_SPHERE);
          EXPECT_DOUBLE_EQ(m->geom_size[3 * g], ours.shape.radius);
        }
        ++checked_geoms;
      }
      EXPECT_EQ(k, static_cast<int>(link.geoms.size())) << "body " << b;
    }
  EXPECT_GT(checked_geoms, 0);
  mj_deleteModel(m);
#endif
}

TEST_P(MujocoPeer, ShortRunGivesFiniteMetrics) {
#ifndef NCP_WITH_MUJOCO
  GTEST_SKIP()
      << "built without MuJoCo (libmujoco-dev not found, or NCPBENCH_MUJOCO=OFF): peer not tested";
#else
  const Scene sc = Build(GetParam());
  for (const char* solver : {"pgs", "cg", "newton"}) {
    mujoco_peer::MjOptions o;
    o.solver = solver;
    o.iterations = 20;
    const mujoco_peer::MjRun r = mujoco_peer::Run(*sc.system, o, 24);
    EXPECT_TRUE(r.finite) << solver;
    EXPECT_TRUE(std::isfinite(r.max_penetration)) << solver;
    EXPECT_LT(r.max_penetration, 0.05) << solver;
    EXPECT_GT(r.step_ms, 0.0) << solver;
    ASSERT_EQ(static_cast<int>(r.final_poses.size()), sc.system->num_bodies());
    for (const auto& T : r.final_poses) EXPECT_TRUE(T.matrix().allFinite()) << solver;
  }
#endif
}

INSTANTIATE_TEST_SUITE_P(Scenes, MujocoPeer, ::testing::ValuesIn(kPeerCases),
                         [](const auto& info) { return std::string(info.param.scene); });

}  // namespace
}  // namespace ncp
