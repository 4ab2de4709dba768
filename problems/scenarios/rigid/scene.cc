#include "problems/scenarios/rigid/scene.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "common/error.h"
#include "problems/scenarios/rigid/pouring.h"

namespace ncp {

using namespace physics;

Scene MakeLaikagoDrop(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeSlidingCubes(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeVerticalStacks(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeObliqueStacks(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeCardHouses(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeStir(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeSoftMat(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeFemBeam(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeCable(const std::map<std::string, double>& p, std::uint64_t seed);

const std::vector<SceneEntry>& Scenes() {
  static const std::vector<SceneEntry> entries = {
      {"laikago_drop",
       "N Laikago quadrupeds (18 DOF each, PD-held stance) dropped in a staggered pile (004 §VII-D2)",
       {{"robots", 8}, {"kp", 30}, {"kd", 1}, {"mu", 0.8}, {"column_gap", 0.4}, {"margin", 0.015}, {"clearance", 0.005}}, 480, 24, MakeLaikagoDrop, 0, {}},
      {"sliding_cubes", "cubes sliding on the floor with random velocities (001 §III-B1)",
       {{"cubes", 100}, {"size", 0.1}, {"mass", 1.0}, {"mu", 0.3}, {"speed", 2.0}}, 240, 24,
       MakeSlidingCubes, 0, {}},
      {"vertical_stacks",
       "stacks of a 100 kg box on a 1 kg box on a 10 g box, top box pitched (001 §III-B2)",
       {{"stacks", 120}, {"pitch_deg", 3}, {"mu", 0.5}}, 240, 24, MakeVerticalStacks, 0, {}},
      {"oblique_stacks",
       "10 kg plates resting obliquely on columns of 50 g cubes, mu = 3 (001 §III-B2)",
       {{"units", 20}, {"mu", 3.0}}, 240, 24, MakeObliqueStacks, 0, {}},
      {"card_houses", "card houses of leaning and flat cards (001 §III-B3)",
       {{"houses", 6}, {"levels", 6}, {"mu", 0.7}}, 240, 24, MakeCardHouses, 0, {}},
      {"stir", "spheres (r = 1 cm, 4 g) in a box stirred by an end effector (000 §IV-A1)",
       {{"spheres", 216}, {"mu", 0.4}, {"radius", 0.01}, {"mass", 0.004}}, 240, 24, MakeStir, 0, {}},
      // Deformable scenes (problems/scenarios/deformable), dt = 1/60 s.
      {"soft_mat",
       "co-rotational FEM mat (size 1: 1452 nodes, 4410 tets) folded by a two-finger gripper; E, nu, "
       "mu drawn from ranges (002 §V-C3); layers: cells through the thickness (0: 2 × size)",
       {{"size", 1}, {"layers", 0}, {"youngs_min", 5e4}, {"youngs_max", 2e5}, {"poisson_min", 0.3},
        {"poisson_max", 0.45}, {"mu_min", 0.3}, {"mu_max", 0.7}, {"density", 1000},
        {"damping", 0.01}, {"geometric_damping", 0}},
       120, 40, MakeSoftMat, 0, {}},
      {"fem_beam",
       "co-rotational FEM beam 0.05 x 0.05 x 0.5 m (size 1: 1675 nodes, 6336 tets) in 20 tied "
       "pieces, pushed along a table through a narrowing gap (000 §IV-A3)",
       {{"size", 1}, {"pieces", 20}, {"youngs", 1e7}, {"poisson", 0.45}, {"density", 1000},
        {"mu", 0.2}, {"gap", 0.045}, {"speed", 0.2}, {"damping", 0.01}, {"geometric_damping", 0}},
       72, 18, MakeFemBeam, 0, {}},
      {"cable",
       "Cosserat cable (rigid links, soft stretch/shear/bend/twist rows) wound around a post by a "
       "gripper; variant 2: 002 §V-C5 (320 links), 0: 000 §IV-A2 (640 links, 4 per subsystem); "
       "links, bodies_per_subsystem 0 = the variant's",
       {{"variant", 2}, {"links", 0}, {"bodies_per_subsystem", 0}, {"length", 1.2},
        {"radius", 0.004}, {"density", 1100}, {"young", 1e5}, {"poisson", 0.49},
        {"damping", 0.001}, {"mu", 0.3}, {"cylinder_radius", 0.04}, {"cylinder_height", 0.2},
        {"turns_per_s", 0.5}, {"pitch", 0.012}},
       200, 40, MakeCable, 60, {"nnewton"}},
      {"pouring",
       "spheres (r = 5 mm, 10 g/cm³) poured from a tilted SDF bottle into a cup (004 §VII-C)",
       {{"particles", 18}, {"radius", 0.005}, {"density", 10000}, {"mu", 0.4}, {"tilt_deg", 150},
        {"tilt_time", 0.75}, {"settle", 0.25}, {"cup_offset", 0.06},
        {"inertia_scale", 100}},
       360, 40, MakePouring, 0, {}},
  };
  return entries;
}

const SceneEntry* FindScene(const std::string& name) {
  for (const SceneEntry& e : Scenes())
    if (e.name == name) return &e;
  return nullptr;
}

std::map<std::string, double> SceneParams(const SceneEntry& e, const ParamMap& given) {
  std::map<std::string, double> out = e.defaults;
  for (const auto& [k, text] : given) {
    if (!out.count(k)) {
      std::string known;
      for (const auto& [n, v] : e.defaults) known += (known.empty() ? "" : ", ") + n;
      throw Error(fmt::format("{}.{}: unknown parameter (known: {})", e.name, k, known));
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
      throw Error(fmt::format("{}.{} = {}: must be a finite number", e.name, k, text));
    out[k] = v;
  }
  // Counts are whole numbers ≥ 1; every other parameter is a size, a gain or a coefficient ≥ 0.
  static const char* kCounts[] = {"robots", "cubes",  "stacks",  "units",    "houses",
                                  "levels", "spheres", "pieces", "particles"};
  for (const auto& [k, v] : out) {
    bool count = false;
    for (const char* c : kCounts) count |= k == c;
    if (count && !(v >= 1 && v == std::floor(v) && v <= 1e6))
      throw Error(fmt::format("{}.{} = {:g}: must be a whole number in [1, 1e6]", e.name, k, v));
    if (!count && !(v >= 0))
      throw Error(fmt::format("{}.{} = {:g}: must be >= 0", e.name, k, v));
  }
  return out;
}

std::string AssetDir() {
  if (const char* env = std::getenv("NCPBENCH_ASSETS")) return env;
  return NCPBENCH_ASSET_DIR;
}

Scene NewScene(const std::map<std::string, double>& params, StepOptions opt) {
  Scene sc;
  sc.params = params;
  sc.system = std::make_unique<MultibodySystem>(opt);
  return sc;
}

Geom BoxGeom(const Vec3& half, double mu) {
  Geom g;
  g.shape.type = ShapeType::kBox;
  g.shape.half_extents = half;
  g.mu = mu;
  return g;
}

Geom SphereGeom(double radius, double mu) {
  Geom g;
  g.shape.type = ShapeType::kSphere;
  g.shape.radius = radius;
  g.mu = mu;
  return g;
}

Mat3 BoxInertia(double mass, const Vec3& h) {
  const Vec3 s = 4.0 * h.cwiseProduct(h);  // full side lengths squared
  return Vec3(mass / 12 * (s.y() + s.z()), mass / 12 * (s.x() + s.z()), mass / 12 * (s.x() + s.y()))
      .asDiagonal();
}

Eigen::VectorXd PoseToQ(const Pose& pose) {
  Eigen::VectorXd q(7);
  const Eigen::Quaterniond r(pose.linear());
  q << pose.translation(), r.w(), r.x(), r.y(), r.z();
  return q;
}

int AddBox(MultibodySystem& s, double mass, const Vec3& half, double mu, const Pose& pose,
           const Vec6& velocity) {
  auto m = std::make_shared<ArticulatedModel>(
      MakeFreeBody("box", mass, BoxInertia(mass, half), {BoxGeom(half, mu)}));
  return s.AddInstance(m, PoseToQ(pose), velocity);
}

int AddSphere(MultibodySystem& s, double mass, double radius, double mu, const Pose& pose,
              double inertia_scale) {
  const double I = 0.4 * mass * radius * radius * inertia_scale;
  auto m = std::make_shared<ArticulatedModel>(
      MakeFreeBody("sphere", mass, I * Mat3::Identity(), {SphereGeom(radius, mu)}));
  return s.AddInstance(m, PoseToQ(pose), Eigen::VectorXd::Zero(6));
}

void AddFloor(MultibodySystem& s, double mu, double incline) {
  Geom g;
  g.shape.type = ShapeType::kPlane;
  g.mu = mu;
  g.local = Pose(Eigen::AngleAxisd(incline, Vec3::UnitY()));
  s.AddWorldGeom(g);
}

}  // namespace ncp
