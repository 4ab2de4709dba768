// soft_ball (002 §V-C4): a co-rotational FEM ball resting on the floor is grasped by two rigid
// fingers — they close from both sides along x, squeeze, then lift the ball off the floor and
// hold it. As 002's gripper (dynamic_fingers = 1, the default) each finger is a rigid body on a
// prismatic joint whose frame follows the lift path, driven toward the closing path by an
// implicit PD drive (grip_stiffness k_p, critically damped for the finger's mass): its contacts
// with the ball couple every node it touches through the finger's slide (COND's virtual nodes),
// and the fingers stop where the drive's force meets the ball's. dynamic_fingers = 0 moves them
// on the path kinematically (nodal contacts). The ball's mesh keeps the cells of a cube grid
// whose centres lie inside it (size 1: 14 cells across, 1983 nodes and 7360 tets, 5949 DOF;
// 002's 1463 / 6928, 4397 DOF). The paper's material constants, finger masses and drive gains
// are not in our copy: Young's modulus, Poisson ratio and μ are drawn from documented ranges
// with the seed, the finger's mass and gain are parameters.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "problems/scenarios/deformable/deformable_scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr int kBallCells = 14;  // cells across the ball at size 1

// The fingers' path: closing until t_close, lifting until t_lift, then holding.
struct GraspPath {
  double t_close = 0.4, t_lift = 1.2;
  double open = 0, closed = 0, lift = 0, z0 = 0;  // finger offsets along x, lift height, centre z

  // The finger's offset along its closing direction and its rate.
  double Closing(double t, double* rate = nullptr) const {
    if (rate) *rate = t < t_close ? (closed - open) / t_close : 0.0;
    return t < t_close ? open + (closed - open) * t / t_close : closed;
  }
  // The fingers' height path (the prismatic joints' frame, at x = 0).
  KinematicState Lift(double t) const {
    double z = z0 + lift, vz = 0.0;
    if (t < t_close) {
      z = z0;
    } else if (t < t_lift) {
      z = z0 + lift * (t - t_close) / (t_lift - t_close);
      vz = lift / (t_lift - t_close);
    }
    KinematicState s;
    s.pose.setIdentity();
    s.pose.translation() = Vec3(0, 0, z);
    s.linear = Vec3(0, 0, vz);
    return s;
  }
  // A finger moved kinematically: the closing path on the lift path.
  KinematicState Finger(double t, int side) const {
    KinematicState s = Lift(t);
    double vx = 0.0;
    s.pose.translation().x() = side * Closing(t, &vx);
    s.linear.x() = side * vx;
    return s;
  }
};

}  // namespace

Scene MakeSoftBall(const std::map<std::string, double>& p, std::uint64_t seed) {
  const int n = ScaledCells(p, kBallCells, 4);
  std::mt19937_64 rng(seed);
  double mu = 0.0;
  const FemMaterial mat = DrawMaterial(p, "soft_ball", rng, mu);
  const double r = p.at("radius");
  Scene sc = NewDeformableScene(p);
  DeformableSystem& s = *sc.deformable;
  // Resting on the floor: the lowest nodes (a grid layer, not the sphere's pole) touch z = 0.
  TetMesh mesh = BallTetMesh(Vec3(0, 0, r), r, n);
  double low = INFINITY;
  for (const Vec3& x : mesh.nodes) low = std::min(low, x.z());
  for (Vec3& x : mesh.nodes) x.z() -= low;
  s.AddBody(mesh, mat, mu, Damping(p));
  s.SetParam("youngs", mat.youngs);
  s.SetParam("poisson", mat.poisson);
  s.SetParam("mu", mu);
  s.SetParam("nodes", static_cast<double>(mesh.nodes.size()));
  s.SetParam("tets", static_cast<double>(mesh.tets.size()));
  s.AddPlane(Vec3::UnitZ(), 0.0, mu);

  // Finger plates 2 cm thick, as tall and wide as the ball, squeezing it by `squeeze` of its
  // radius on each side; centred at the height of the ball's centre.
  double hi = -INFINITY, lo_x = INFINITY;
  for (const Vec3& x : mesh.nodes) hi = std::max(hi, x.z()), lo_x = std::min(lo_x, x.x());
  const double reach = -lo_x, hf = 0.01;
  auto path = std::make_shared<GraspPath>();
  path->open = reach + 0.003 + hf;
  path->closed = reach * (1.0 - p.at("squeeze")) + hf;
  path->lift = p.at("lift");
  path->z0 = 0.5 * hi;
  const Vec3 half(hf, 0.8 * r, 0.8 * r);
  if (p.at("dynamic_fingers") == 0) {
    s.AddBox(half, mu, [path](double t) { return path->Finger(t, +1); });
    s.AddBox(half, mu, [path](double t) { return path->Finger(t, -1); });
    return sc;
  }
  const double m = p.at("finger_mass"), kp = p.at("grip_stiffness");
  for (const int side : {+1, -1}) {
    physics::PrismaticDrive d;
    d.frame = [path](double t) { return path->Lift(t); };
    d.axis = Vec3(side, 0, 0);
    d.target = [path](double t) { return path->Closing(t); };
    d.kp = kp;
    d.kd = 2.0 * std::sqrt(kp * m);
    s.AddSliderBox(half, m, mu, std::move(d));
  }
  return sc;
}

}  // namespace ncp
