// klann: a six-legged Klann walker after 003 §6 (Figs. 1d, 5c). Each leg is a planar Klann
// linkage (a Stephenson III six-bar: frame, crank, connecting rod, two rockers, leg) in the x–z
// plane; one crank shaft along y carries all six cranks: legs in 3 pairs along y, pairs 120°
// apart, the two legs of a pair 180° apart, all facing the same way. Proportions: Klann's linkage
// as optimized by boim.com (crank 17.5 units; the rockers' frame pivots at (−38.8, −12.5) and
// (−14.6, 41.9) from the shaft), scaled so that the crank is `crank_radius`.
//   A tree of revolute joints (all about y) in reduced coordinates, per leg: shaft → rod (at the
//   crank pin) → lower rocker (at the rod's middle); rod → leg (at the knee) → upper rocker (at
//   the hip). The rockers' frame pivots close the two loops: pins keeping the 2 in-plane
//   translation rows (bilateral; the other four would be dependent in a planar mechanism).
//   With the shared crank joint, 5 revolute joints per leg; 24 bilateral rows, as in 003.
// Chassis (`chassis`):
//   1: a body on two prismatic joints (x, then z) — it walks along x carried by its feet, without
//      pitching or leaving the plane; DOF = 2 + 1 + 6 · 4 = 27 (003: 26 with a shaft per side
//      and no chassis dofs). It starts with its lowest foot on the floor.
//   0: the world ("hanging"): the shaft is fixed at the height where the lowest point of the
//      feet's path is `clearance` above the floor, so feet brush the floor along the flat part of
//      the stride (contacts come and go, unloaded); DOF = 25.
// Contacts: spherical feet at the legs' tips on the floor z = 0. The mechanism cannot move across
// its plane, so the feet's friction rows along y have J = 0.
// Motor: the shaft is tied to a world frame turning at `crank_speed` by one rotation row about y
// (the chassis does not turn, so that is the shaft's joint angle) — soft with motor_kp > 0 (a PD
// velocity servo: K = motor_kp, D = motor_kd), bilateral with motor_kp = 0 (003's constant speed
// by inverse dynamics). PdGains would act on every joint of the tree, not on the shaft alone.
// Closures held at the velocity level (e = erp · error / dt) drift by the step's second-order
// term: about 3 crank_radius (dt · crank_speed)² over a turn (4e-6 m at the defaults; 1e-8 m
// takes dt · crank_speed ≲ 2e-4 rad with the default crank).
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <memory>
#include <tuple>
#include <vector>

#include "common/error.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr int kLegs = 6;

// Klann proportions (units of the crank AC = 17.5): the shaft A at the origin, the frame pivots
// B (lower rocker) and D (upper rocker); crank pin C, rod C–H–F, lower rocker B–H, upper rocker
// D–E, leg E–F–G with the foot G.
constexpr double kAC = 17.5, kBx = -38.8, kBy = -12.5, kDx = -14.6, kDy = 41.9;
constexpr double kBH = 23.7, kCF = 73.4, kCH = 38.8, kDE = 34.1, kEF = 57.7, kEG = 111.7,
                 kFG = 59.0, kFH = 35.2;

using P2 = Eigen::Vector2d;  // (u, w): u along x, w up, in crank units

// The point at distance rp from p and rq from q, on the left of p → q (side = +1) or the right.
P2 Apex(const P2& p, double rp, const P2& q, double rq, double side) {
  const P2 d = q - p;
  const double l = d.norm(), a = (rp * rp - rq * rq + l * l) / (2 * l);
  const double h = std::sqrt(std::max(0.0, rp * rp - a * a));
  const P2 e = d / l;
  return p + a * e + side * h * P2(-e.y(), e.x());
}

// The linkage's joints at crank angle theta (counterclockwise from +u). The branches are the
// walking assembly: they assemble at every angle, and the foot runs nearly flat (within 2
// units) for about half a turn.
struct LegPose {
  P2 C, H, F, E, G;
};
LegPose Solve(double theta) {
  const P2 B(kBx, kBy), D(kDx, kDy);
  LegPose k;
  k.C = kAC * P2(std::cos(theta), std::sin(theta));
  k.H = Apex(k.C, kCH, B, kBH, -1);
  k.F = Apex(k.C, kCF, k.H, kFH, -1);
  k.E = Apex(k.F, kEF, D, kDE, +1);
  k.G = Apex(k.F, kFG, k.E, kEG, -1);
  return k;
}

// Lowest height of the foot over a turn [crank units]: sampled, then refined on the bracket.
double LowestFoot() {
  constexpr int n = 720;
  int best = 0;
  double low = Solve(0).G.y();
  for (int i = 1; i < n; ++i)
    if (const double w = Solve(2 * M_PI * i / n).G.y(); w < low) best = i, low = w;
  double lo = 2 * M_PI * (best - 1) / n, hi = 2 * M_PI * (best + 1) / n;
  for (int it = 0; it < 100; ++it) {  // the path is smooth and convex near its lowest point
    const double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
    if (Solve(a).G.y() < Solve(b).G.y())
      hi = b;
    else
      lo = a;
  }
  return Solve(0.5 * (lo + hi)).G.y();
}

// Mass properties of a link made of bars (density [kg/m]) between points of its frame: thin rods
// with a small isotropic term so that no axis is massless.
void SetBars(Link& l, const std::vector<std::array<Vec3, 2>>& bars, double density) {
  double m = 0;
  Vec3 c = Vec3::Zero();
  Mat3 I = Mat3::Zero();  // about the link origin
  for (const auto& [a, b] : bars) {
    const double mb = density * (b - a).norm();
    const Vec3 mid = 0.5 * (a + b), d = b - a;
    I += mb * ((mid.squaredNorm() * Mat3::Identity() - mid * mid.transpose()) +
               (d.squaredNorm() * Mat3::Identity() - d * d.transpose()) / 12.0);
    m += mb;
    c += mb * mid;
  }
  c /= m;
  l.mass = m;
  l.com = c;
  const double len = std::sqrt(I.trace() / m);  // the link's size
  l.inertia = I - m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose()) +
              1e-3 * m * len * len * Mat3::Identity();
}

// What both walkers start from: the scene at its time step with the floor, and each leg's crank
// phase (pairs 120° apart, a pair's legs 180°) and plane y along the shaft.
struct Walker {
  Scene scene;
  std::array<double, kLegs> phase, y;
};
Walker NewWalker(const std::map<std::string, double>& p) {
  StepOptions opt;
  opt.dt = p.at("dt");
  Walker w{NewScene(p, opt), {}, {}};
  AddFloor(*w.scene.system, p.at("mu"));
  for (int i = 0; i < kLegs; ++i) {
    w.phase[i] = 2 * M_PI * (i / 2) / 3 + M_PI * (i % 2);
    w.y[i] = (i - 0.5 * (kLegs - 1)) * p.at("leg_spacing");
  }
  return w;
}

}  // namespace

Scene MakeKlann(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const double s = p.at("crank_radius") / kAC;  // metres per unit
  const double omega = p.at("crank_speed"), kp = p.at("motor_kp"), kd = p.at("motor_kd");
  if (kp == 0 && kd != 0)
    throw Error(
        fmt::format("klann.motor_kd = {}: must be 0 with motor_kp = 0 (the prescribed "
                    "speed is a bilateral row: no damper)",
                    kd));
  const double r_foot = p.at("foot_radius"), spacing = p.at("leg_spacing");
  const double density = p.at("density");
  Walker w = NewWalker(p);
  Scene sc = std::move(w.scene);
  MultibodySystem& sys = *sc.system;
  const auto& phase = w.phase;
  const auto& y = w.y;
  const bool moving = p.at("chassis") != 0;
  // A fixed chassis hangs where the lowest point of the path is `clearance` above the floor (any
  // lower, a foot would jam the 1-DOF linkage against it); a moving one starts with its lowest
  // foot there.
  double lowest = LowestFoot();
  if (moving) {
    lowest = 1e30;
    for (int i = 0; i < kLegs; ++i) lowest = std::min(lowest, Solve(phase[i]).G.y());
  }
  const double height = p.at("clearance") + r_foot - s * lowest;
  // World point of linkage point x of the leg in the plane y = plane.
  auto world = [&](const P2& x, double plane) {
    return Vec3(s * x.x(), plane, height + s * x.y());
  };
  auto at = [](const Vec3& x) { return Pose(Eigen::Translation3d(x)); };

  // Built at q = 0: every link frame at its joint with the world's axes, in the pose the
  // linkage takes at its crank angle, so that the closures hold at rest.
  auto m = std::make_shared<ArticulatedModel>();
  m->name = "klann";
  const Vec3 A = world(P2::Zero(), 0);
  std::vector<std::array<Vec3, 2>> crank_bars;
  for (int i = 0; i < kLegs; ++i) {
    const Vec3 pin = world(Solve(phase[i]).C, y[i]);
    crank_bars.push_back({Vec3(0, y[i], 0), pin - A});
  }
  int chassis = -1;  // link of the chassis (−1: the world)
  if (moving) {
    // Two prismatic joints, x then z, with the chassis' frame at the shaft: it walks in the
    // linkage's plane without turning, so the shaft's angle in the world is its joint angle.
    Link slide;
    slide.name = "slide_x";
    slide.joint = JointType::kPrismatic;
    slide.axis = Vec3::UnitX();
    slide.parent_to_joint = at(A);
    slide.mass = 0.01 * p.at("chassis_mass");
    slide.inertia = BoxInertia(slide.mass, Vec3(0.01, 0.01, 0.01));
    m->links.push_back(slide);
    Link body;
    body.name = "chassis";
    body.parent = 0;
    body.joint = JointType::kPrismatic;
    body.axis = Vec3::UnitZ();
    body.mass = p.at("chassis_mass");
    const double half = 0.5 * std::max(spacing * kLegs, 2 * s * std::abs(kBx));
    body.inertia = BoxInertia(body.mass, Vec3(half, half, 0.25 * half));
    m->links.push_back(body);
    chassis = 1;
  }
  const int shaft_link = static_cast<int>(m->links.size());
  {
    Link shaft;
    shaft.name = "shaft";
    shaft.parent = chassis;
    shaft.joint = JointType::kRevolute;
    shaft.axis = Vec3::UnitY();
    shaft.parent_to_joint = chassis < 0 ? at(A) : Pose::Identity();
    crank_bars.push_back({Vec3(0, y[0], 0), Vec3(0, y[kLegs - 1], 0)});
    SetBars(shaft, crank_bars, density);
    m->links.push_back(shaft);
  }
  struct Pins {
    Vec3 B, H, D, E;   // world points of the closures (frame pivot, rocker joint)
    int lower, upper;  // link indices of the rockers
  };
  std::array<Pins, kLegs> pins;
  for (int i = 0; i < kLegs; ++i) {
    const LegPose k = Solve(phase[i]);
    const Vec3 C = world(k.C, y[i]), H = world(k.H, y[i]), F = world(k.F, y[i]),
               E = world(k.E, y[i]), G = world(k.G, y[i]);
    const Vec3 B = world(P2(kBx, kBy), y[i]), D = world(P2(kDx, kDy), y[i]);
    auto add = [&](const std::string& name, int parent, const Vec3& from, const Vec3& joint,
                   const std::vector<std::array<Vec3, 2>>& bars) {
      Link l;
      l.name = fmt::format("{}{}", name, i);
      l.parent = parent;
      l.joint = JointType::kRevolute;
      l.axis = Vec3::UnitY();
      l.parent_to_joint = at(joint - from);
      std::vector<std::array<Vec3, 2>> local;
      for (const auto& [a, b] : bars) local.push_back({a - joint, b - joint});
      SetBars(l, local, density);
      m->links.push_back(l);
      return static_cast<int>(m->links.size()) - 1;
    };
    const int rod = add("rod", shaft_link, A, C, {{C, H}, {H, F}});
    pins[i].lower = add("lower_rocker", rod, C, H, {{H, B}});
    const int leg = add("leg", rod, C, F, {{E, F}, {F, G}});
    m->links[leg].geoms.push_back(SphereGeom(r_foot, p.at("mu")));
    m->links[leg].geoms.back().local = at(G - F);
    pins[i].upper = add("upper_rocker", leg, F, E, {{E, D}});
    pins[i].B = B, pins[i].H = H, pins[i].D = D, pins[i].E = E;
  }
  m->Finalize();
  const int id = sys.AddInstance(m, Eigen::VectorXd::Zero(m->nq), Eigen::VectorXd::Zero(m->nv));
  const int body = sys.instances()[id].first_body;
  sys.Finalize();

  // Loop closures: each rocker's free end pinned to its frame pivot (x and z rows).
  for (const Pins& q : pins) {
    for (const auto& [link, pivot, joint] :
         {std::tuple{q.lower, q.B, q.H}, std::tuple{q.upper, q.D, q.E}}) {
      Coupling c;
      c.body_a = chassis < 0 ? -1 : body + chassis;
      c.frame_a = at(chassis < 0 ? pivot : Vec3(pivot - A));
      c.body_b = body + link;
      c.frame_b = at(pivot - joint);
      c.hard = true;
      c.rows = 1u << 0 | 1u << 2;
      sys.AddCoupling(c);
    }
  }
  // Motor: the shaft follows a frame turning about −y (the linkage's counterclockwise: the
  // crank angle of Solve increasing) at crank_speed.
  Coupling motor;
  motor.body_a = -1;
  motor.frame_a = at(A);
  motor.body_b = body + shaft_link;
  motor.rows = 1u << 4;
  motor.anchor_angular = Vec3(0, -omega, 0);
  if (kp > 0) {
    motor.stiffness[4] = kp;
    motor.damping[4] = kd;
  } else {
    motor.hard = true;
  }
  sys.AddCoupling(motor);
  return sc;
}

// klann_friction: the same walker hanging (the shaft fixed in the world, feet brushing the floor)
// in maximal coordinates with joint friction, for 003 Fig. 5c: every link a free body, every
// revolute joint and loop-closing pin a FrictionJoint about y (joint_contacts.h: a cylinder of
// radius joint_radius held by five implicit contacts, |λ_t| ≤ joint_mu |λ_n| each), the shaft
// held in the world by one whose contacts span the legs; the motor a bilateral row turning the
// shaft at crank_speed (003's constant speed by inverse dynamics), the only bilateral row of the
// frames, whose impulse over dt is the motor torque. The closing pins make the planar loops
// over-constrained in 3D: their out-of-plane rows are dependent, and consistent.
Scene MakeKlannFriction(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const double s = p.at("crank_radius") / kAC;  // metres per unit
  const double r_foot = p.at("foot_radius"), density = p.at("density");
  Walker w = NewWalker(p);
  Scene sc = std::move(w.scene);
  MultibodySystem& sys = *sc.system;
  const auto& phase = w.phase;
  const auto& y = w.y;
  const double height = p.at("clearance") + r_foot - s * LowestFoot();
  auto world = [&](const P2& x, double plane) {
    return Vec3(s * x.x(), plane, height + s * x.y());
  };
  auto at = [](const Vec3& x) { return Pose(Eigen::Translation3d(x)); };
  // A free body with its frame at `origin` (world axes), made of bars given in world points.
  auto add_body = [&](const std::string& name, const Vec3& origin,
                      const std::vector<std::array<Vec3, 2>>& bars, std::vector<Geom> geoms) {
    Link l;
    l.name = name;
    l.joint = JointType::kFloating;
    std::vector<std::array<Vec3, 2>> local;
    for (const auto& [a, b] : bars) local.push_back({a - origin, b - origin});
    SetBars(l, local, density);
    for (Geom& g : geoms) g.local.translation() -= origin;
    l.geoms = std::move(geoms);
    auto m = std::make_shared<ArticulatedModel>();
    m->name = name;
    m->links.push_back(l);
    m->Finalize();
    const int id = sys.AddInstance(m, PoseToQ(at(origin)), Eigen::VectorXd::Zero(6));
    return sys.instances()[id].first_body;
  };
  const Vec3 A = world(P2::Zero(), 0);
  std::vector<std::array<Vec3, 2>> shaft_bars = {
      {Vec3(A.x(), y[0], A.z()), Vec3(A.x(), y[kLegs - 1], A.z())}};
  for (int i = 0; i < kLegs; ++i)
    shaft_bars.push_back({Vec3(A.x(), y[i], A.z()), world(Solve(phase[i]).C, y[i])});
  const int shaft = add_body("shaft", A, shaft_bars, {});
  struct Leg {
    Vec3 C, H, F, E, B, D;
    int rod, lower, leg, upper;
  };
  std::array<Leg, kLegs> legs;
  for (int i = 0; i < kLegs; ++i) {
    const LegPose k = Solve(phase[i]);
    Leg& l = legs[i];
    l.C = world(k.C, y[i]), l.H = world(k.H, y[i]), l.F = world(k.F, y[i]);
    l.E = world(k.E, y[i]);
    l.B = world(P2(kBx, kBy), y[i]), l.D = world(P2(kDx, kDy), y[i]);
    const Vec3 G = world(k.G, y[i]);
    Geom foot = SphereGeom(r_foot, p.at("mu"));
    foot.local = at(G);  // made relative to the body's frame by add_body
    l.rod = add_body(fmt::format("rod{}", i), l.C, {{l.C, l.H}, {l.H, l.F}}, {});
    l.lower = add_body(fmt::format("lower_rocker{}", i), l.H, {{l.H, l.B}}, {});
    l.leg = add_body(fmt::format("leg{}", i), l.F, {{l.E, l.F}, {l.F, G}}, {foot});
    l.upper = add_body(fmt::format("upper_rocker{}", i), l.E, {{l.E, l.D}}, {});
  }
  sys.Finalize();

  // Joint frames: z along the world's y, at the pin.
  const Eigen::AngleAxisd z_to_y(-M_PI / 2, Vec3::UnitX());
  auto joint = [&](int a, const Vec3& a_origin, int b, const Vec3& b_origin, const Vec3& pin,
                   double half_length) {
    FrictionJoint j;
    j.body_a = a;
    j.body_b = b;
    j.frame_a = Pose(z_to_y);
    j.frame_a.translation() = a < 0 ? pin : Vec3(pin - a_origin);
    j.frame_b = Pose(z_to_y);
    j.frame_b.translation() = pin - b_origin;
    j.radius = p.at("joint_radius");
    j.half_length = half_length;
    j.mu = p.at("joint_mu");
    sys.AddFrictionJoint(j);
  };
  const double h = p.at("joint_half_length");
  joint(-1, Vec3::Zero(), shaft, A, A, std::max(h, 0.5 * (y[kLegs - 1] - y[0])));
  for (const Leg& l : legs) {
    joint(shaft, A, l.rod, l.C, l.C, h);
    joint(l.rod, l.C, l.lower, l.H, l.H, h);
    joint(l.rod, l.C, l.leg, l.F, l.F, h);
    joint(l.leg, l.F, l.upper, l.E, l.E, h);
    joint(-1, Vec3::Zero(), l.lower, l.H, l.B, h);  // the closing pins to the frame
    joint(-1, Vec3::Zero(), l.upper, l.E, l.D, h);
  }
  Coupling motor;
  motor.body_a = -1;
  motor.frame_a = at(A);
  motor.body_b = shaft;
  motor.rows = 1u << 4;
  motor.anchor_angular = Vec3(0, -p.at("crank_speed"), 0);
  motor.hard = true;
  sys.AddCoupling(motor);
  return sc;
}

}  // namespace ncp
