// stir (000 §IV-A1): small spheres in an open box, stirred by an end effector that moves on a
// prescribed circle (a kinematic capsule: its velocity enters the contact rows through e).
#include <algorithm>
#include <cmath>
#include <random>

#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

Scene MakeStir(const std::map<std::string, double>& p, std::uint64_t seed) {
  Scene sc = NewScene(p);
  MultibodySystem& s = *sc.system;
  const double mu = p.at("mu"), r = p.at("radius");
  const int n = static_cast<int>(p.at("spheres"));
  const int side = static_cast<int>(std::ceil(std::cbrt(n)));
  const double L = side * 2.2 * r + 0.02;  // inner width of the box
  AddFloor(s, mu);
  // Four walls: planes facing inwards.
  const double a = M_PI / 2;
  const Pose walls[4] = {
      Pose(Eigen::Translation3d(L / 2, 0, 0) * Eigen::AngleAxisd(-a, Vec3::UnitY())),
      Pose(Eigen::Translation3d(-L / 2, 0, 0) * Eigen::AngleAxisd(a, Vec3::UnitY())),
      Pose(Eigen::Translation3d(0, L / 2, 0) * Eigen::AngleAxisd(a, Vec3::UnitX())),
      Pose(Eigen::Translation3d(0, -L / 2, 0) * Eigen::AngleAxisd(-a, Vec3::UnitX()))};
  for (const Pose& w : walls) {
    Geom g;
    g.shape.type = ShapeType::kPlane;
    g.mu = mu;
    g.local = w;
    s.AddWorldGeom(g);
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < n; ++i) {
    const int ix = i % side, iy = (i / side) % side, iz = i / (side * side);
    const double x = (ix - 0.5 * (side - 1)) * 2.2 * r + 0.1 * r * u(rng);
    const double y = (iy - 0.5 * (side - 1)) * 2.2 * r + 0.1 * r * u(rng);
    AddSphere(s, p.at("mass"), r, mu, Pose(Eigen::Translation3d(x, y, r + 1e-4 + iz * 2.05 * r)));
  }
  // The stirrer: a vertical capsule that starts above the pile, descends at 0.2 m/s until its
  // tip is 5 mm above the floor, and circles at radius L/4, one turn per second.
  Geom stick;
  stick.shape.type = ShapeType::kCapsule;
  stick.shape.radius = r;
  stick.shape.half_length = 0.05;
  stick.mu = mu;
  const int geom = s.AddKinematicGeom(stick);
  const int layers = (n + side * side - 1) / (side * side);
  const double z_low = stick.shape.half_length + r + 0.005;
  const double z_high = layers * 2.05 * r + stick.shape.half_length + 2 * r + 0.01;
  const double R = 0.25 * L, w = 2 * M_PI, descent = 0.2;
  auto place = [=](MultibodySystem& sys) {
    const double t = sys.time();
    const double z = std::max(z_low, z_high - descent * t);
    const double vz = z > z_low ? -descent : 0.0;
    const Pose T(Eigen::Translation3d(R * std::cos(w * t), R * std::sin(w * t), z));
    sys.SetKinematicPose(geom, T, Vec3(-R * w * std::sin(w * t), R * w * std::cos(w * t), vz),
                         Vec3::Zero());
  };
  s.Finalize();
  place(s);
  sc.before_step = place;
  return sc;
}

}  // namespace ncp
