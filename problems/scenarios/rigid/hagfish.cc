// hagfish: a slender body of 100 joints that coils onto itself, after 003 §6 (Fig. 3, HAGFISH):
// "Z-revolute and XY-universal joints in an alternating fashion, for a total of 100 joints",
// self-collision along a spline through the body found by Newton's method, no friction.
//   A tree in reduced coordinates: `joints` segments of equal length along the body's x axis,
//   segment 0 (the head) hinged to the world at the origin; joint k before segment k is a
//   Z-revolute for even k and an XY-universal for odd k (an X revolute, about the body axis,
//   carrying a small link, then a Y revolute). DOF = 3 · joints / 2.
//   Radius `radius` over the front 70% of the body, tapering linearly to `tail_radius` at the
//   tail; segments are solid cylinders of `density`. No gravity: the body floats (003's animal
//   is in water; neutral buoyancy is assumed).
//   Self-collision (SplineBody): the spline through every segment's joint and the tail tip;
//   segments nearer than 2.5 body diameters along the body are not tested (they always overlap).
//   Each contact is one frictionless unilateral row ("we do not model friction").
//   The driver: 003 does not give the controller that knots its hagfish (its §6 calls how the
//   animal forms the knot an open problem). Here PD servos (PdGains, every joint) bend each
//   Z joint towards an angle that coils the body `turns` times around, ramped over `ramp`
//   seconds, and twist each X joint by `twist` degrees, which lifts the coil into a helix: past
//   one turn the tail runs along the body it has passed and rests on it.
//   Joint limits ±`bend_limit` (Z, Y) and ±`twist_limit` (X) rows (unilateral).
// 003 gives "length, mass, radii and joint limits with data taken from real measurements"
// [Evans et al. 2018] but not the figures: the defaults are ours (a 45 cm Pacific hagfish).
#include <cmath>
#include <memory>

#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

namespace {

struct Body {
  int joints;
  double length, radius, tail_radius, density;
  double Segment() const { return length / joints; }
  // Radius at arc length s from the head.
  double RadiusAt(double s) const {
    const double taper = 0.7 * length;
    if (s <= taper) return radius;
    return radius + (tail_radius - radius) * (s - taper) / (length - taper);
  }
};

Link Segment(const Body& b, int k, int parent, const Pose& at, const Vec3& axis, double limit) {
  const double L = b.Segment(), r = b.RadiusAt((k + 0.5) * L);
  Link l;
  l.name = "segment" + std::to_string(k);
  l.parent = parent;
  l.joint = JointType::kRevolute;
  l.parent_to_joint = at;
  l.axis = axis;
  l.mass = b.density * M_PI * r * r * L;
  l.com = Vec3(0.5 * L, 0, 0);
  l.inertia = Vec3(0.5 * l.mass * r * r, l.mass * (3 * r * r + L * L) / 12,
                   l.mass * (3 * r * r + L * L) / 12)
                  .asDiagonal();
  l.lower = -limit, l.upper = limit;
  return l;
}

// The body's tree: per odd joint a small link for the universal's X revolute. Returns the link of
// every segment in `segment_link`.
ArticulatedModel MakeBody(const Body& b, double bend_limit, double twist_limit,
                          std::vector<int>& segment_link) {
  ArticulatedModel m;
  m.name = "hagfish";
  Pose at = Pose::Identity();  // the head's joint at the world's origin
  int parent = -1;
  for (int k = 0; k < b.joints; ++k) {
    if (k % 2 == 1) {  // the universal's first axis: a link of 1% of the segment's mass
      Link x = Segment(b, k, parent, at, Vec3::UnitX(), twist_limit);
      x.name += "_twist";
      x.mass *= 0.01, x.inertia *= 0.01, x.com.setZero();
      m.links.push_back(x);
      parent = static_cast<int>(m.links.size()) - 1;
      at = Pose::Identity();
    }
    m.links.push_back(
        Segment(b, k, parent, at, k % 2 == 0 ? Vec3::UnitZ() : Vec3::UnitY(), bend_limit));
    parent = static_cast<int>(m.links.size()) - 1;
    segment_link.push_back(parent);
    at = Pose::Identity();
    at.translation() = Vec3(b.Segment(), 0, 0);
  }
  m.Finalize();
  return m;
}

}  // namespace

Scene MakeHagfish(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const Body b{static_cast<int>(p.at("joints")), p.at("length"), p.at("radius"),
               p.at("tail_radius"), p.at("density")};
  const double deg = M_PI / 180.0;
  StepOptions opt;
  opt.dt = p.at("dt");
  opt.gravity = Vec3::Zero();
  opt.margin = p.at("margin");
  opt.limit_margin = 2 * deg;
  Scene sc = NewScene(p, opt);
  MultibodySystem& s = *sc.system;

  std::vector<int> link;
  auto model = std::make_shared<ArticulatedModel>(
      MakeBody(b, p.at("bend_limit") * deg, p.at("twist_limit") * deg, link));
  PdGains pd{.kp = p.at("kp"), .kd = p.at("kd"), .target = Eigen::VectorXd::Zero(model->nq)};
  const int id =
      s.AddInstance(model, model->NeutralConfiguration(), Eigen::VectorXd::Zero(model->nv), pd);
  s.Finalize();

  SplineBody sb;
  const int first = s.instances()[id].first_body;
  for (int k = 0; k <= b.joints; ++k) {
    sb.body.push_back(first + link[std::min(k, b.joints - 1)]);
    sb.local.push_back(k < b.joints ? Vec3::Zero() : Vec3(b.Segment(), 0, 0));
    sb.radius.push_back(b.RadiusAt(k * b.Segment()));
  }
  sb.skip = static_cast<int>(std::ceil(2.5 * 2 * b.radius / b.Segment()));
  s.AddSplineBody(sb);

  // Z joints bend towards turns · 2π spread over them, X joints twist, both ramped.
  const int z_joints = (b.joints + 1) / 2;
  const double bend = p.at("turns") * 2 * M_PI / z_joints, twist = p.at("twist") * deg;
  const double ramp = p.at("ramp");
  sc.before_step = [model, id, bend, twist, ramp](MultibodySystem& sys) {
    Instance& in = sys.instances()[id];
    const double f = ramp > 0 ? std::min(1.0, sys.time() / ramp) : 1.0;
    for (const Link& l : model->links) {
      if (l.axis.z() == 1.0) in.pd.target[l.q_index] = f * bend;
      if (l.axis.x() == 1.0) in.pd.target[l.q_index] = f * twist;
    }
  };
  return sc;
}

}  // namespace ncp
