// bridge: a cable-stayed fan bridge after 003 §6 (Figs. 1a, 4a; Table 2). The deck is a chain of
// `pieces` bodies along x joined by revolute joints about y, its root hinged to the world at x = 0
// and its far end pinned to the world by two bilateral rows (x and z: 003 §3.1's loop closure
// grounding both ends). Two towers at L/4 and 3L/4 carry stay cables: one damped spring per deck
// piece, from the nearer tower (its top, or lower with anchor_spread) to the piece's centre, stiff
// along the cable only, with the cable's length at rest (a spring in maximal coordinates: it
// couples two bodies' twists and breaks the tree structure of A, which is what 003's preconditioner
// is for).
//   flexible = 0 ("Rigid"): the towers are the world, so every spring touches one body and the
//                projected block-Jacobi preconditioner equals the step's matrix A + J_sᵀ D J_s
//                (003: PCG in one iteration);
//                dofs = pieces.
//   flexible = 1 ("Flexy"): each tower is a chain of tower_pieces bodies hinged about y with
//                joint springs, and the deck's weight is scaled by `load` (003: "an exaggerated
//                weight"); dofs = pieces + 2 tower_pieces (003 Table 2: 60–960 with tower_pieces
//                = pieces / 4).
// No geometry: nothing touches, the step's rows are the springs (soft) and the pin (bilateral).
#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "common/error.h"
#include "problems/scenarios/rigid/line_spring.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

namespace {

// A chain of `n` boxes of length `l` along the link x axis, hinged about y, its root joint at
// `base` in the world. Joint i sits at the start of piece i.
std::shared_ptr<ArticulatedModel> HingedChain(const std::string& name, int n, double l, double mass,
                                              const Vec3& half, const Pose& base) {
  auto m = std::make_shared<ArticulatedModel>();
  m->name = name;
  for (int i = 0; i < n; ++i) {
    Link k;
    k.name = fmt::format("{}{}", name, i);
    k.parent = i - 1;
    k.joint = JointType::kRevolute;
    k.axis = Vec3::UnitY();
    k.parent_to_joint = i == 0 ? base : Pose(Eigen::Translation3d(l, 0, 0));
    k.mass = mass;
    k.com = Vec3(0.5 * l, 0, 0);
    k.inertia = BoxInertia(mass, half);
    m->links.push_back(k);
  }
  m->Finalize();
  return m;
}

}  // namespace

Scene MakeBridge(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  const int n = static_cast<int>(p.at("pieces"));
  const bool flexible = p.at("flexible") != 0;
  const int nt =
      p.at("tower_pieces") > 0 ? static_cast<int>(p.at("tower_pieces")) : std::max(1, n / 4);
  const double L = p.at("length"), H = p.at("height"), T = p.at("tower_height");
  const double l = L / n, load = flexible ? p.at("load") : 1.0;
  const double mass = p.at("deck_density") * l * load;  // [kg/m] × piece length
  StepOptions opt;
  opt.dt = p.at("dt");
  Scene sc = NewScene(p, opt);
  MultibodySystem& s = *sc.system;

  // The deck, horizontal at rest (q = 0), hinge axes along y: it bends in the x–z plane.
  const Vec3 deck_half(0.5 * l, 0.5 * p.at("deck_width"), 0.5);
  const int deck =
      s.AddInstance(HingedChain("deck", n, l, mass, deck_half, Pose(Eigen::Translation3d(0, 0, H))),
                    Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n));
  const int deck_body = s.instances()[deck].first_body;

  // Towers: vertical chains (link x up: the base rotated by −90° about y) with joint springs.
  const double xt[2] = {0.25 * L, 0.75 * L};
  int tower_top[2] = {-1, -1};
  if (flexible) {
    const double lt = (H + T) / nt;
    const double tower_mass = p.at("deck_density") * lt;
    // Joint springs of a discretized beam: k = EI / piece length, so that a tower's bending
    // stiffness does not depend on how many pieces it is cut into.
    PdGains pd;
    pd.kp = p.at("tower_EI") / lt;
    pd.kd = p.at("tower_damping") * pd.kp;
    pd.target = Eigen::VectorXd::Zero(nt);
    for (int t = 0; t < 2; ++t) {
      Pose base(Eigen::AngleAxisd(-M_PI / 2, Vec3::UnitY()));
      base.translation() = Vec3(xt[t], 0, 0);
      const int id = s.AddInstance(
          HingedChain(fmt::format("tower{}_", t), nt, lt, tower_mass, Vec3(0.5 * lt, 1, 1), base),
          Eigen::VectorXd::Zero(nt), Eigen::VectorXd::Zero(nt), pd);
      tower_top[t] = s.instances()[id].first_body + nt - 1;
    }
  }
  s.Finalize();

  // Stay cables from the nearer tower to each piece's centre, k = EA / length.
  const double EA = p.at("cable_stiffness"), tau = p.at("cable_damping");
  const double spread = p.at("anchor_spread");
  for (int i = 0; i < n; ++i) {
    const Vec3 at((i + 0.5) * l, 0, H);
    const int t = at.x() < 0.5 * L ? 0 : 1;
    // The anchor: the top for the farthest piece, down to (1 − spread) T above the deck for the
    // nearest (spread = 0: every cable at the top, a fan); a piece centred under its tower
    // (pieces ≡ 2 mod 4) counts as half a piece away, so that its cable keeps a length.
    const double reach = std::max(std::abs(at.x() - xt[t]), 0.5 * l) / (0.25 * L);
    const Vec3 top(xt[t], 0, H + T * (1.0 - spread * (1.0 - std::min(reach, 1.0))));
    int body = -1;
    if (flexible) {
      const int piece = std::min(nt - 1, static_cast<int>(top.z() / ((H + T) / nt)));
      body = tower_top[t] - (nt - 1) + piece;
    }
    AddLineSpring(s, body, top, deck_body + i, at, EA / (at - top).norm(), tau);
  }
  // The far end pinned: x and z held, rotation about y free.
  Coupling pin;
  pin.body_a = -1;
  pin.frame_a = Pose(Eigen::Translation3d(L, 0, H));
  pin.body_b = deck_body + n - 1;
  pin.frame_b = Pose(Eigen::Translation3d(l, 0, 0));
  pin.hard = true;
  pin.rows = 1u << 0 | 1u << 2;
  s.AddCoupling(pin);
  return sc;
}

}  // namespace ncp
