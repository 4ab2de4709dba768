// Box scenes of paper 001: sliding cubes, vertical stacks (odd mass ratios), oblique stacks
// (plates on cube columns, μ = 3), card houses; and paper 002's pushed box (§V-B) and box
// slipping on anisotropic friction (§V-G).
#include <cmath>
#include <random>

#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

namespace {
Pose At(double x, double y, double z, double pitch = 0.0, double yaw = 0.0) {
  Pose T(Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()));
  T.translation() = Vec3(x, y, z);
  return T;
}
constexpr double kGap = 1e-4;  // initial clearance between resting boxes

// 002's single-box scenes: the box rests exactly on the floor with no slop (any sinking is the
// contact model's error), at the scene's time step.
Scene NoSlopScene(const std::map<std::string, double>& p) {
  StepOptions opt;
  opt.dt = p.at("dt");
  opt.slop = 0.0;
  return NewScene(p, opt);
}
}  // namespace

Scene MakeSlidingCubes(const std::map<std::string, double>& p, std::uint64_t seed) {
  Scene sc = NewScene(p);
  MultibodySystem& s = *sc.system;
  AddFloor(s, p.at("mu"));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = static_cast<int>(p.at("cubes"));
  const double h = 0.5 * p.at("size"), pitch = 4 * h;
  const int side = static_cast<int>(std::ceil(std::sqrt(n)));
  for (int i = 0; i < n; ++i) {
    Vec6 v = Vec6::Zero();
    const double a = M_PI * u(rng), speed = p.at("speed") * 0.5 * (1 + u(rng));
    v[0] = speed * std::cos(a), v[1] = speed * std::sin(a);  // body frame = world at yaw 0
    AddBox(s, p.at("mass"), Vec3::Constant(h), p.at("mu"),
           At((i % side) * pitch, (i / side) * pitch, h + kGap), v);
  }
  s.Finalize();
  return sc;
}

Scene MakeBoxPush(const std::map<std::string, double>& p, std::uint64_t) {
  Scene sc = NoSlopScene(p);
  MultibodySystem& s = *sc.system;
  AddFloor(s, p.at("mu"));
  const double h = 0.5 * p.at("size");
  const int box = AddBox(s, p.at("mass"), Vec3::Constant(h), p.at("mu"), At(0, 0, h));
  s.instances()[box].push = Vec3(p.at("force"), 0, 0);
  s.Finalize();
  return sc;
}

Scene MakeBoxSlip(const std::map<std::string, double>& p, std::uint64_t) {
  Scene sc = NoSlopScene(p);
  MultibodySystem& s = *sc.system;
  // A pair's coefficient on each axis is the geometric mean of its geoms': with the box's μ at
  // mu_x, the floor's ellipse (mu_x, mu_y²/mu_x) makes the pair's (mu_x, mu_y).
  const double mx = p.at("mu_x"), my = p.at("mu_y");
  Geom floor;
  floor.shape.type = ShapeType::kPlane;
  floor.mu = mx;
  floor.mu_y = my * my / mx;
  s.AddWorldGeom(floor);
  const double h = 0.5 * p.at("size"), a = p.at("angle_deg") * M_PI / 180.0;
  Vec6 v = Vec6::Zero();
  v[0] = p.at("speed") * std::cos(a), v[1] = p.at("speed") * std::sin(a);
  AddBox(s, p.at("mass"), Vec3::Constant(h), mx, At(0, 0, h), v);
  s.Finalize();
  return sc;
}

Scene MakeVerticalStacks(const std::map<std::string, double>& p, std::uint64_t seed) {
  Scene sc = NewScene(p);
  MultibodySystem& s = *sc.system;
  const double mu = p.at("mu");
  AddFloor(s, mu);
  const int n = static_cast<int>(p.at("stacks"));
  const int side = static_cast<int>(std::ceil(std::sqrt(n)));
  const double pitch = p.at("pitch_deg") * M_PI / 180.0;
  // Bottom to top: 10 g, 1 kg, 100 kg (half sizes 2.5, 5, 10 cm).
  const double hs[3] = {0.025, 0.05, 0.1}, ms[3] = {0.01, 1.0, 100.0};
  for (int k = 0; k < n; ++k) {
    const double x = (k % side) * 0.6, y = (k / side) * 0.6;
    double z = 0.0;
    for (int b = 0; b < 3; ++b) {
      z += hs[b] + kGap;
      // The top box is pitched, so it lands on an edge first.
      AddBox(s, ms[b], Vec3::Constant(hs[b]), mu,
             At(x, y, z + (b == 2 ? 0.01 : 0.0), b == 2 ? pitch : 0.0));
      z += hs[b];
    }
  }
  s.Finalize();
  return sc;
}

Scene MakeObliqueStacks(const std::map<std::string, double>& p, std::uint64_t seed) {
  Scene sc = NewScene(p);
  MultibodySystem& s = *sc.system;
  const double mu = p.at("mu");
  AddFloor(s, mu);
  const int n = static_cast<int>(p.at("units"));
  const double c = 0.025;  // cube half size (50 g cubes, 5 cm)
  // Per unit: columns of 1, 2 and 3 cubes 0.2 m apart; a 10 kg plate rests on top, inclined.
  const double slope = std::atan2(2 * c, 0.2);
  for (int k = 0; k < n; ++k) {
    const double y = k * 0.4;
    for (int col = 0; col < 3; ++col)
      for (int j = 0; j <= col; ++j)
        AddBox(s, 0.05, Vec3::Constant(c), mu, At(col * 0.2, y, c + j * (2 * c + kGap) + kGap));
    const Vec3 half(0.28, 0.06, 0.01);
    // Plate centre above the middle column, tilted so it touches the three columns: its
    // underside z(x) = zc − h/cos s + (x − x_c) tan s must clear each column's top across the
    // cube's width, hence the c·tan s term.
    const double zc = 4 * c + 2 * kGap + c * std::tan(slope) + half.z() / std::cos(slope) + 1e-4;
    AddBox(s, 10.0, half, mu, At(0.2, y, zc, -slope));
  }
  s.Finalize();
  return sc;
}

Scene MakeCardHouses(const std::map<std::string, double>& p, std::uint64_t seed) {
  Scene sc = NewScene(p);
  MultibodySystem& s = *sc.system;
  const double mu = p.at("mu");
  AddFloor(s, mu);
  const int houses = static_cast<int>(p.at("houses")), levels = static_cast<int>(p.at("levels"));
  const Vec3 card(0.002, 0.03, 0.045);    // half thickness, half width, half height (9 × 6 cm)
  const double mass = 0.002, lean = 0.3;  // lean angle from vertical [rad]
  const double cl = std::cos(lean), sl = std::sin(lean);
  const double foot = 2 * card.z() * sl;  // horizontal half-span of an A-frame
  // Top of a leaning card: its centre + half height along the card + half thickness across it.
  const double frame_height = 2 * (card.z() * cl + card.x() * sl) + kGap;
  // Frames one flat card's length apart, so neighbouring flat cards meet end to end.
  const double pitch = 2 * card.z() + 0.002;
  for (int h = 0; h < houses; ++h) {
    const double y0 = h * 0.25;
    double z0 = 0.0;
    for (int lv = 0; lv < levels; ++lv) {
      const int frames = levels - lv;
      const double x0 = lv * 0.5 * pitch;
      for (int f = 0; f < frames; ++f) {
        const double xc = x0 + f * pitch;
        const double zc = z0 + card.z() * cl + card.x() * sl + kGap;
        // Two cards leaning on each other: an A-frame whose faces touch at the apex (each card
        // set off by its half thickness along the horizontal).
        const double off = 0.5 * foot + card.x() / cl + kGap;
        AddBox(s, mass, card, mu, At(xc - off, y0, zc, lean));
        AddBox(s, mass, card, mu, At(xc + off, y0, zc, -lean));
      }
      z0 += frame_height;
      // Flat cards bridging neighbouring frames.
      for (int f = 0; f + 1 < frames; ++f) {
        const double xc = x0 + (f + 0.5) * pitch;
        AddBox(s, mass, Vec3(card.z(), card.y(), card.x()), mu, At(xc, y0, z0 + card.x() + kGap));
      }
      z0 += 2 * card.x() + 2 * kGap;
    }
  }
  s.Finalize();
  return sc;
}

}  // namespace ncp
