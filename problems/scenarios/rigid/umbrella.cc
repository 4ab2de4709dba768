// umbrella: a deployable umbrella after 003 §6 (Figs. 1b, 4b; Table 2). The tube is the world
// (its tip at `tube_height`); 8 ribs hang from the tip and 8 stretchers rise from the runner, a
// body on a prismatic joint along the tube held in place by a spring. Ribs and stretchers are
// chains of universal joints (each a pair of revolute joints, about the piece's y then z axis,
// through a light intermediate link); each stretcher's tip is tied to the middle of its rib by
// three bilateral rows (a ball joint closing the loop), and neighbouring ribs are joined piece by
// piece by canopy springs (soft rows along the line between piece centres: springs in maximal
// coordinates). Ribs and stretchers have joint springs (beams of bending stiffness rib_EI).
//   DOF = 8 · 2 rib_pieces + 8 · 2 stretcher_pieces + 1 (runner); with rib_pieces = 2
//   stretcher_pieces (0: that rule), stretcher_pieces = 5, 8, 11, 16, 23 give Table 2's 241,
//   385, 529, 769, 1105.
// No geometry: a step's rows are the canopy and runner springs and the rib joint springs (soft)
// and the 24 loop-closure rows (bilateral).
#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "common/error.h"
#include "problems/scenarios/rigid/line_spring.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr int kArms = 8;
constexpr double kJointMass = 0.01;  // intermediate link of a universal joint / piece mass

// Appends a chain of `pieces` universal-joint pieces of length l along the link x axis to `m`,
// its first joint at `base` in frame `parent` (−1: the world). Returns the heavy link of each
// piece (the second link of its universal joint, whose frame sits at the piece's start).
std::vector<int> AddUniversalChain(ArticulatedModel& m, int parent, const Pose& base, int pieces,
                                   double l, double mass, const std::string& name) {
  std::vector<int> heavy;
  const Vec3 half(0.5 * l, 0.005, 0.005);
  for (int i = 0; i < pieces; ++i) {
    Link a;  // first axis of the universal joint: y
    a.name = fmt::format("{}{}a", name, i);
    a.parent = i == 0 ? parent : heavy.back();
    a.joint = JointType::kRevolute;
    a.axis = Vec3::UnitY();
    a.parent_to_joint = i == 0 ? base : Pose(Eigen::Translation3d(l, 0, 0));
    a.mass = kJointMass * mass;
    a.inertia = BoxInertia(a.mass, Vec3(0.005, 0.005, 0.005));
    m.links.push_back(a);
    Link b;  // second axis: z, the piece itself
    b.name = fmt::format("{}{}", name, i);
    b.parent = static_cast<int>(m.links.size()) - 1;
    b.joint = JointType::kRevolute;
    b.axis = Vec3::UnitZ();
    b.mass = mass;
    b.com = Vec3(0.5 * l, 0, 0);
    b.inertia = BoxInertia(mass, half);
    m.links.push_back(b);
    heavy.push_back(static_cast<int>(m.links.size()) - 1);
  }
  return heavy;
}

Pose Along(const Vec3& from, const Vec3& dir) {
  Pose T(Eigen::Quaterniond::FromTwoVectors(Vec3::UnitX(), dir.normalized()));
  T.translation() = from;
  return T;
}

}  // namespace

Scene MakeUmbrella(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const int ns = static_cast<int>(p.at("stretcher_pieces"));
  const int nr = p.at("rib_pieces") > 0 ? static_cast<int>(p.at("rib_pieces")) : 2 * ns;
  if (nr % 2 != 0)
    throw Error(
        fmt::format("umbrella.rib_pieces = {}: must be even (the stretcher holds the "
                    "rib at its middle joint)",
                    nr));
  const double R = p.at("rib_length"), T = p.at("tube_height");
  const double open = p.at("open_deg") * M_PI / 180.0;
  const double lr = R / nr, density = p.at("density");
  StepOptions opt;
  opt.dt = p.at("dt");
  Scene sc = NewScene(p, opt);
  MultibodySystem& s = *sc.system;

  // Ribs: from the tip outwards and `open_deg` below the horizontal.
  const Vec3 tip(0, 0, T);
  Vec3 dir[kArms], mid[kArms];
  int rib_first_body[kArms];
  std::vector<int> rib_heavy;
  // Discretized as a beam and a membrane, so that refining does not stiffen or soften them: rib
  // joint springs k = EI / piece length, and the nr canopy springs between two ribs (in
  // parallel) share the canopy's stiffness, k = canopy_stiffness / nr.
  PdGains rib_pd;
  rib_pd.kp = p.at("rib_EI") / lr;
  rib_pd.kd = p.at("rib_damping") * rib_pd.kp;
  for (int a = 0; a < kArms; ++a) {
    const double phi = 2 * M_PI * a / kArms;
    dir[a] = Vec3(std::cos(phi) * std::cos(open), std::sin(phi) * std::cos(open), -std::sin(open));
    mid[a] = tip + 0.5 * R * dir[a];
    auto m = std::make_shared<ArticulatedModel>();
    m->name = fmt::format("rib{}", a);
    rib_heavy = AddUniversalChain(*m, -1, Along(tip, dir[a]), nr, lr, density * lr, "rib");
    m->Finalize();
    rib_pd.target = Eigen::VectorXd::Zero(m->nq);
    const int id =
        s.AddInstance(m, Eigen::VectorXd::Zero(m->nq), Eigen::VectorXd::Zero(m->nv), rib_pd);
    rib_first_body[a] = s.instances()[id].first_body;
  }
  // Runner and stretchers, one tree: the runner slides along z; stretchers from its centre to
  // the ribs' midpoints.
  const Vec3 runner(0, 0, T - p.at("runner_drop"));
  auto m = std::make_shared<ArticulatedModel>();
  m->name = "runner";
  {
    Link r;
    r.name = "runner";
    r.joint = JointType::kPrismatic;
    r.axis = Vec3::UnitZ();
    r.parent_to_joint = Pose(Eigen::Translation3d(runner));
    r.mass = p.at("runner_mass");
    r.inertia = BoxInertia(r.mass, Vec3(0.02, 0.02, 0.03));
    m->links.push_back(r);
  }
  std::vector<int> stretcher_tip(kArms);
  double ls[kArms];
  for (int a = 0; a < kArms; ++a) {
    const double length = (mid[a] - runner).norm();
    ls[a] = length / ns;
    const std::vector<int> heavy =
        AddUniversalChain(*m, 0, Along(Vec3::Zero(), mid[a] - runner), ns, ls[a],
                          0.5 * density * ls[a], fmt::format("stretcher{}_", a));
    stretcher_tip[a] = heavy.back();
  }
  m->Finalize();
  // Stretchers are beams too (free joints make each a rope between two pins, which the explicit
  // velocity terms of a 10 ms step shake apart from 11 pieces on); the same springs also hold
  // the runner's slide at its place.
  PdGains stretcher_pd;
  stretcher_pd.kp = p.at("rib_EI") / (ls[0]);
  stretcher_pd.kd = p.at("rib_damping") * stretcher_pd.kp;
  stretcher_pd.target = Eigen::VectorXd::Zero(m->nq);
  const int run =
      s.AddInstance(m, Eigen::VectorXd::Zero(m->nq), Eigen::VectorXd::Zero(m->nv), stretcher_pd);
  const int run_body = s.instances()[run].first_body;
  s.Finalize();

  // The runner held by a spring along the tube; canopy springs between neighbouring ribs' pieces.
  const double tau = p.at("spring_damping");
  AddLineSpring(s, -1, runner - Vec3(0, 0, 0.1), run_body, runner, p.at("runner_stiffness"), tau);
  const double kc = p.at("canopy_stiffness") / nr;
  for (int a = 0; a < kArms; ++a) {
    const int b = (a + 1) % kArms;
    for (int k = 0; k < nr; ++k) {
      const int ba = rib_first_body[a] + rib_heavy[k], bb = rib_first_body[b] + rib_heavy[k];
      AddLineSpring(s, ba, s.BodyPose(ba) * Vec3(0.5 * lr, 0, 0), bb,
                    s.BodyPose(bb) * Vec3(0.5 * lr, 0, 0), kc, tau);
    }
  }
  // Loop closures: the stretcher's tip held at the rib's middle joint (translation rows only).
  for (int a = 0; a < kArms; ++a) {
    Coupling c;
    c.body_a = rib_first_body[a] + rib_heavy[nr / 2 - 1];
    c.frame_a = Pose(Eigen::Translation3d(lr, 0, 0));
    c.body_b = run_body + stretcher_tip[a];
    c.frame_b = Pose(Eigen::Translation3d(ls[a], 0, 0));
    c.hard = true;
    c.rows = 0x7;
    s.AddCoupling(c);
  }
  return sc;
}

}  // namespace ncp
