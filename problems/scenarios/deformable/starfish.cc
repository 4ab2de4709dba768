// starfish: a 20-joint skeleton two-way coupled to a coarse co-rotational FEM body, after 003 §6
// (Fig. 1c, STARFISH): "a skeleton consisting of 20 joints and a coarse FEM mesh consisting of
// 221 vertices ... we procedurally prescribe some of the joints ... The rest of the skeleton and
// the FEM mesh are passively simulated with fully implicit two-way coupling."
//   Flesh: a five-armed star (`radius` from the centre to the tips, a disc of `disc` radius,
//   arms `arm_width` wide at the disc tapering to `tip_width`), `thickness` thick, carved from a
//   grid of `cells` cells across and one through the thickness (CarvedTetMesh, 5 tets a cell),
//   lying on the floor (1 mm above it at the start).
//   Skeleton (reduced coordinates, a MultibodySystem): a floating central body and per arm a
//   chain of 4 bones on revolute joints about the horizontal axis across the arm (5 × 4 = 20
//   joints, 26 dofs), mid-thickness, from 3 cm off the centre to 95% of the arm's length.
//   Coupling (CoupledSystem): every flesh node within `attach_radius` of a bone's axis is attached
//   to the nearest bone (the central body's: within the first joints' circle).
//   Driver: the two inner joints of every arm are prescribed (bilateral rows, 003 §4's hybrid
//   dynamics), q*(t) = ramp(t) · `amplitude` · sin(2π `frequency` t − 2π a/5) for arm a, a wave
//   around the body; the two outer joints and the central body are passive: they move only
//   through the flesh.
// 003 gives the counts (20 joints, 221 vertices), not the shape, material or motion: the defaults
// are ours (a 28 cm starfish, soft rubber).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "common/error.h"
#include "problems/physics/fem/tet_mesh.h"
#include "problems/scenarios/deformable/deformable_scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr int kArms = 5;
constexpr int kBones = 4;             // per arm
constexpr double kFirstJoint = 0.03;  // distance of the arms' first joints from the centre [m]
constexpr double kBoneDensity = 2.0;  // bone mass per metre [kg/m]

struct Star {
  double radius, disc, arm_width, tip_width;
  Vec3 Direction(int a) const {
    const double th = M_PI / 2 + 2 * M_PI * a / kArms;
    return Vec3(std::cos(th), std::sin(th), 0);
  }
  // Is (x, y) inside the star's outline?
  bool Inside(double x, double y) const {
    if (std::hypot(x, y) <= disc) return true;
    for (int a = 0; a < kArms; ++a) {
      const Vec3 d = Direction(a);
      const double along = x * d.x() + y * d.y(), across = std::abs(-x * d.y() + y * d.x());
      if (along < 0 || along > radius) continue;
      if (across <= 0.5 * (arm_width + (tip_width - arm_width) * along / radius)) return true;
    }
    return false;
  }
  double BoneLength() const { return (0.95 * radius - kFirstJoint) / kBones; }
};

ArticulatedModel MakeSkeleton(const Star& s) {
  ArticulatedModel m;
  m.name = "starfish";
  Link root;
  root.name = "disc";
  root.joint = JointType::kFloating;
  root.mass = kBoneDensity * 2 * kFirstJoint;
  root.inertia = Vec3(0.25, 0.25, 0.5).asDiagonal() * root.mass * kFirstJoint * kFirstJoint;
  m.links.push_back(root);
  const double L = s.BoneLength();
  for (int a = 0; a < kArms; ++a) {
    int parent = 0;
    for (int k = 0; k < kBones; ++k) {
      Link b;
      b.name = "arm" + std::to_string(a) + "_bone" + std::to_string(k);
      b.parent = parent;
      b.joint = JointType::kRevolute;
      if (k == 0) {
        b.parent_to_joint.linear() =
            Eigen::AngleAxisd(M_PI / 2 + 2 * M_PI * a / kArms, Vec3::UnitZ()).toRotationMatrix();
        b.parent_to_joint.translation() = kFirstJoint * s.Direction(a);
      } else {
        b.parent_to_joint.translation() = Vec3(L, 0, 0);
      }
      b.axis = Vec3::UnitY();  // across the arm, horizontal: the arm bends up and down
      b.mass = kBoneDensity * L;
      b.com = Vec3(L / 2, 0, 0);
      const double r = 0.002;  // the bone's radius, for its inertia about its axis
      b.inertia =
          Vec3(0.5 * r * r, (3 * r * r + L * L) / 12, (3 * r * r + L * L) / 12).asDiagonal() *
          b.mass;
      b.lower = -M_PI / 3, b.upper = M_PI / 3;
      m.links.push_back(b);
      parent = static_cast<int>(m.links.size()) - 1;
    }
  }
  m.Finalize();
  return m;
}

// Distance from p to the segment [a, b].
double SegmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (a + t * ab - p).norm();
}

}  // namespace

Scene MakeStarfish(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const Star star{p.at("radius"), p.at("disc"), p.at("arm_width"), p.at("tip_width")};
  if (!(star.disc < star.radius))
    throw Error(
        fmt::format("starfish.disc = {:g}: must be < radius = {:g}", star.disc, star.radius));
  if (!(kFirstJoint < 0.95 * star.radius))
    throw Error(fmt::format("starfish.radius = {:g}: must be > {:g} (the arms' first joints)",
                            star.radius, kFirstJoint / 0.95));
  const double t = p.at("thickness"), lift = 0.001;
  const int cells = static_cast<int>(p.at("cells"));
  StepOptions opt = FemStepOptions();
  opt.dt = p.at("dt");
  opt.margin = p.at("margin");

  auto flesh = std::make_unique<DeformableSystem>(opt);
  const TetMesh mesh = CarvedTetMesh(Vec3(-star.radius, -star.radius, lift),
                                     Vec3(2 * star.radius, 2 * star.radius, t), {cells, cells, 1},
                                     [&](const Vec3& c) { return star.Inside(c.x(), c.y()); });
  const FemMaterial mat{p.at("youngs"), p.at("poisson"), p.at("density")};
  flesh->AddBody(mesh, mat, p.at("mu"), FemDamping{0.0, p.at("damping"), false});
  flesh->AddPlane(Vec3::UnitZ(), 0.0, p.at("mu"));

  auto skeleton = std::make_unique<MultibodySystem>(opt);
  auto model = std::make_shared<ArticulatedModel>(MakeSkeleton(star));
  Eigen::VectorXd q = model->NeutralConfiguration();
  q[2] = lift + t / 2;  // the skeleton at mid-thickness
  const int id = skeleton->AddInstance(model, q, Eigen::VectorXd::Zero(model->nv));
  skeleton->Finalize();

  const double amp = p.at("amplitude") * M_PI / 180, freq = p.at("frequency");
  const double ramp = p.at("ramp");
  for (int a = 0; a < kArms; ++a)
    for (int k = 0; k < 2; ++k)
      skeleton->PrescribeJoint(id, 1 + a * kBones + k, [=](double time) {
        const double f = ramp > 0 ? std::min(1.0, time / ramp) : 1.0;
        return f * amp * std::sin(2 * M_PI * (freq * time - static_cast<double>(a) / kArms));
      });

  Scene sc;
  sc.params = p;
  sc.coupled = std::make_unique<CoupledSystem>(std::move(skeleton), std::move(flesh), opt);
  CoupledSystem& cs = *sc.coupled;
  // Each node near a bone's axis to the nearest bone; the central body holds the nodes within
  // the first joints' circle.
  const int first = cs.skeleton().instances()[id].first_body;
  const double reach = p.at("attach_radius"), L = star.BoneLength();
  const Vec& x = cs.flesh().positions();
  for (int n = 0; n < cs.flesh().num_nodes(); ++n) {
    const Vec3 xn = x.segment<3>(3 * n);
    const Vec3 centre(0, 0, lift + t / 2);
    int best = -1;
    double dist = reach;
    if (Vec3(xn.x(), xn.y(), 0).norm() <= kFirstJoint &&
        (xn - centre).norm() <= reach + kFirstJoint)
      best = first, dist = 0;
    for (int a = 0; a < kArms && dist > 0; ++a)
      for (int k = 0; k < kBones; ++k) {
        const Vec3 from = centre + (kFirstJoint + k * L) * star.Direction(a);
        const double d = SegmentDistance(xn, from, from + L * star.Direction(a));
        if (d <= dist) best = first + 1 + a * kBones + k, dist = d;
      }
    if (best >= 0) cs.Attach(best, n);
  }
  // A bone that holds no flesh would swing free inside it: refuse the parameters instead.
  std::vector<int> held(model->links.size(), 0);
  for (int a = 0; a < cs.num_attachments(); ++a) ++held[cs.attachment_body(a) - first];
  for (std::size_t l = 0; l < held.size(); ++l)
    if (held[l] == 0)
      throw Error(
          fmt::format("starfish.attach_radius = {:g}: no flesh node lies within it of "
                      "'{}' (at cells = {}): must be larger, or cells more",
                      reach, model->links[l].name, cells));
  return sc;
}

}  // namespace ncp
