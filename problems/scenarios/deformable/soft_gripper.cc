// soft_gripper (002 §V-C6): two co-rotational FEM fingers (silicone, as 002's Ecoflex 0050 fingers
// on a linear actuator) close on a free rigid block resting on the floor, squeeze it and lift it;
// the block is dynamic, so its contacts with the fingers' nodes are not nodal (002: "virtual
// nodes are applied to its points of contact"). Each finger's top face is driven on the
// actuator's path. Size 1: fingers of 8 × 10 × 22 cells (5 tets each), 4554 nodes and 17 600
// tets with 13 668 DOF (002: 4889 nodes, 18 122 tets, 14 681 DOF). The paper's material
// constants are not in our copy: Young's modulus, Poisson ratio and μ are drawn from documented
// ranges with the seed (Ecoflex 0050's published modulus, about 0.08 MPa, lies inside the range).
#include <cmath>
#include <memory>
#include <random>

#include "problems/scenarios/deformable/deformable_scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr int kFingerCells[3] = {8, 10, 22};  // across (x), wide (y), tall (z) at size 1

// The actuator's path of the right finger's top face (the left one mirrored in x): closing by
// `close` until t_close, then lifting by `lift` until t_lift, then holding.
struct FingerActuator {
  double t_close = 0.5, t_lift = 1.3, close = 0.0, lift = 0.0;
  Vec3 Displacement(double t, int side) const {
    const double c = close * std::min(1.0, t / t_close);
    const double l = t <= t_close ? 0.0 : lift * std::min(1.0, (t - t_close) / (t_lift - t_close));
    return Vec3(-side * c, 0.0, l);
  }
};

}  // namespace

Scene MakeSoftGripper(const std::map<std::string, double>& p, std::uint64_t seed) {
  const double size = p.at("size");
  const std::array<int, 3> cells = {
      std::max(2, static_cast<int>(std::lround(kFingerCells[0] * size))),
      std::max(2, static_cast<int>(std::lround(kFingerCells[1] * size))),
      std::max(4, static_cast<int>(std::lround(kFingerCells[2] * size)))};
  std::mt19937_64 rng(seed);
  double mu = 0.0;
  const FemMaterial mat = DrawMaterial(p, "soft_gripper", rng, mu);
  Scene sc = NewDeformableScene(p);
  DeformableSystem& s = *sc.deformable;
  const double half_block = 0.5 * p.at("block"), gap = 0.002;
  const Vec3 finger(p.at("finger_thickness"), p.at("finger_width"), p.at("finger_height"));
  const double z_lo = 0.004;  // the fingers' tips clear the floor
  for (int side : {+1, -1}) {
    // The finger's inner face 2 mm off the block's side.
    const double x_inner = side * (half_block + gap);
    const Vec3 lo(side > 0 ? x_inner : x_inner - finger.x(), -0.5 * finger.y(), z_lo);
    const TetMesh mesh = BoxTetMesh(lo, finger, cells, 5);
    const int body = s.AddBody(mesh, mat, mu, Damping(p));
    std::vector<int> top;
    for (int i = 0; i <= cells[0]; ++i)
      for (int j = 0; j <= cells[1]; ++j) top.push_back(BoxNode(cells, i, j, cells[2]));
    auto path = std::make_shared<FingerActuator>();
    path->close = gap + p.at("squeeze");
    path->lift = p.at("lift");
    s.AddDriver(body, std::move(top),
                [path, side](double t) { return path->Displacement(t, side); });
  }
  s.AddPlane(Vec3::UnitZ(), 0.0, mu);
  Pose block = Pose::Identity();
  block.translation() = Vec3(0, 0, half_block);
  s.AddRigidBox(Vec3::Constant(half_block), p.at("block_mass"), mu, block);
  s.SetParam("youngs", mat.youngs);
  s.SetParam("poisson", mat.poisson);
  s.SetParam("mu", mu);
  s.SetParam("nodes", s.num_nodes());
  s.SetParam("tets", s.num_tets());
  return sc;
}

}  // namespace ncp
