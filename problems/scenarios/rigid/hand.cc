// hand: a forearm and hand whose fingers couple DIP to PIP, after 003 §6 (Fig. 2, HAND): "we use
// hyper reduced coordinates on the DIP/PIP of the four fingers ... The fingertip positions are
// prescribed using maximal inverse dynamics, and at the same time, the elbow angle is prescribed
// using reduced inverse dynamics."
//   A tree in reduced coordinates hinged to the world at the elbow (revolute about −y: the
//   forearm along x rises as the elbow flexes); the palm fixed to the forearm (no wrist); four
//   fingers, each an abduction (about the palm's normal, z) and a flexion joint at the knuckle
//   (MCP), then PIP and DIP (about y: positive angles curl the finger towards −z, the palm's side);
//   a thumb of two flexion joints, passive, within its joint limits. DIP = `dip_ratio` × PIP on
//   every finger (MultibodySystem::CoupleJoints: 003's hyper-reduced coordinate, as one bilateral
//   row); the elbow on its path (PrescribeJoint, one bilateral row); each fingertip on its path by
//   three bilateral rows to a world frame moved along it (hard translation rows of a Coupling). The
//   fingertips' paths are the fingertips of a reference motion (knuckles and PIPs flexing in a wave
//   over the fingers, DIP = ratio × PIP, the elbow's path), so they stay reachable; the solve finds
//   the fingers' joint motion (inverse kinematics through the dynamics), and the thumb swings
//   passively.
// 003 gives neither the hand's dimensions nor its motion: the defaults are ours (an adult hand,
// index finger 9.3 cm).
#include <array>
#include <cmath>
#include <memory>

#include "problems/physics/dynamics/dynamics.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

namespace {

constexpr double kDeg = M_PI / 180;
constexpr int kFingers = 4;
// Index to little: knuckle offset across the palm [m] and length scale.
constexpr double kKnuckleY[kFingers] = {0.027, 0.009, -0.009, -0.027};
constexpr double kScale[kFingers] = {1.0, 1.08, 1.0, 0.8};
constexpr double kPhalanx[3] = {0.045, 0.027, 0.021};  // proximal, middle, distal [m]
constexpr double kForearm = 0.26, kPalm = 0.09;

Link Rod(const std::string& name, int parent, const Pose& at, const Vec3& axis, double length,
         double mass, double lower, double upper) {
  Link l;
  l.name = name;
  l.parent = parent;
  l.joint = JointType::kRevolute;
  l.parent_to_joint = at;
  l.axis = axis;
  l.mass = mass;
  l.com = Vec3(length / 2, 0, 0);
  const double r = 0.008;
  l.inertia =
      Vec3(0.5 * r * r, (3 * r * r + length * length) / 12, (3 * r * r + length * length) / 12)
          .asDiagonal() *
      mass;
  l.lower = lower, l.upper = upper;
  return l;
}

Pose At(const Vec3& p, double yaw = 0) {
  Pose T = Pose::Identity();
  T.translation() = p;
  T.linear() = Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix();
  return T;
}

// Links of finger f: abduction, MCP, PIP, DIP, in this order from `first`.
struct Hand {
  ArticulatedModel model;
  int finger_first[kFingers] = {};
  int elbow = 0;
};

Hand MakeHandModel(double density) {
  Hand h;
  ArticulatedModel& m = h.model;
  m.name = "hand";
  m.links.push_back(Rod("forearm", -1, Pose::Identity(), -Vec3::UnitY(), kForearm,
                        density * 4e-3 * kForearm / 0.26, -10 * kDeg, 150 * kDeg));
  Link palm;
  palm.name = "palm";
  palm.parent = 0;
  palm.joint = JointType::kFixed;
  palm.parent_to_joint = At(Vec3(kForearm, 0, 0));
  palm.mass = density * kPalm * 0.08 * 0.025;
  palm.com = Vec3(kPalm / 2, 0, 0);
  palm.inertia =
      Vec3(0.08 * 0.08 + 0.025 * 0.025, kPalm * kPalm + 0.025 * 0.025, kPalm * kPalm + 0.08 * 0.08)
          .asDiagonal() *
      (palm.mass / 12);
  m.links.push_back(palm);
  for (int f = 0; f < kFingers; ++f) {
    const std::string name = "finger" + std::to_string(f);
    const double s = kScale[f], r2 = 0.009 * 0.009 * M_PI;  // a finger's cross-section [m²]
    h.finger_first[f] = static_cast<int>(m.links.size());
    Link abd = Rod(name + "_abduction", 1, At(Vec3(kPalm, kKnuckleY[f], 0)), Vec3::UnitZ(), 0.0,
                   1e-3, -20 * kDeg, 20 * kDeg);
    abd.inertia = Mat3::Identity() * 1e-8;
    m.links.push_back(abd);
    const double lower[3] = {-10 * kDeg, 0, 0}, upper[3] = {90 * kDeg, 110 * kDeg, 80 * kDeg};
    const char* joint[3] = {"_mcp", "_pip", "_dip"};
    for (int k = 0; k < 3; ++k) {
      const double L = s * kPhalanx[k];
      const Pose at = k == 0 ? Pose::Identity() : At(Vec3(s * kPhalanx[k - 1], 0, 0));
      m.links.push_back(Rod(name + joint[k], static_cast<int>(m.links.size()) - 1, at,
                            Vec3::UnitY(), L, density * r2 * L, lower[k], upper[k]));
    }
  }
  // The thumb: two flexion joints from the palm's side, pointing 50° off the fingers.
  m.links.push_back(Rod("thumb_cmc", 1, At(Vec3(0.015, 0.04, 0), 50 * kDeg), Vec3::UnitY(), 0.045,
                        density * 0.01 * 0.01 * M_PI * 0.045, 0, 60 * kDeg));
  m.links.push_back(Rod("thumb_mcp", static_cast<int>(m.links.size()) - 1, At(Vec3(0.045, 0, 0)),
                        Vec3::UnitY(), 0.035, density * 0.01 * 0.01 * M_PI * 0.035, 0, 60 * kDeg));
  m.Finalize();
  return h;
}

// The reference motion at time t: the elbow's path, knuckles (10°–40°) and PIPs (20°–70°)
// flexing in a wave over the fingers (finger f lags by f × `lag` of a period), DIP = ratio × PIP,
// abduction 0, the thumb at rest. The fingertip stays ahead of its knuckle (8 mm at the fullest
// flex with ratio ½): a tip under the knuckle is on the abduction axis, where the fingertip rows
// lose a rank and a large step's linearized rows contradict each other.
struct HandMotion {
  Hand hand;
  double elbow_amp, frequency, lag, ratio;
  double Elbow(double t) const { return elbow_amp * 0.5 * (1 - std::cos(M_PI * frequency * t)); }
  Eigen::VectorXd Q(double t) const {
    Eigen::VectorXd q = hand.model.NeutralConfiguration();
    q[hand.model.links[0].q_index] = Elbow(t);
    for (int f = 0; f < kFingers; ++f) {
      const double w = 0.5 * (1 - std::cos(2 * M_PI * (frequency * t - f * lag)));
      const int first = hand.finger_first[f];
      const double pip = (20 + 50 * w) * kDeg;
      q[hand.model.links[first + 1].q_index] = (10 + 30 * w) * kDeg;
      q[hand.model.links[first + 2].q_index] = pip;
      q[hand.model.links[first + 3].q_index] = ratio * pip;
    }
    return q;
  }
  // Every fingertip (the distal phalanx's far end) in the world at time t.
  std::array<Vec3, kFingers> Tips(double t) const {
    Kinematics kin;
    ForwardKinematics(hand.model, Q(t), kin);
    std::array<Vec3, kFingers> tips;
    for (int f = 0; f < kFingers; ++f)
      tips[f] = kin.world[hand.finger_first[f] + 3] * Vec3(kScale[f] * kPhalanx[2], 0, 0);
    return tips;
  }
};

}  // namespace

Scene MakeHand(const std::map<std::string, double>& p, std::uint64_t /*seed*/) {
  StepOptions opt;
  opt.dt = p.at("dt");
  opt.erp = 1.0;  // prescribed paths and couplings land on their targets each step
  opt.limit_margin = 2 * kDeg;
  Scene sc = NewScene(p, opt);
  MultibodySystem& s = *sc.system;
  auto ref =
      std::make_shared<HandMotion>(HandMotion{MakeHandModel(p.at("density")), p.at("elbow") * kDeg,
                                              p.at("frequency"), p.at("lag"), p.at("dip_ratio")});
  const Hand& hand = ref->hand;
  auto model = std::make_shared<ArticulatedModel>(hand.model);
  const int id = s.AddInstance(model, ref->Q(0), Eigen::VectorXd::Zero(model->nv));
  s.Finalize();
  s.PrescribeJoint(id, hand.elbow, [ref](double t) { return ref->Elbow(t); });
  const int first_body = s.instances()[id].first_body;
  std::vector<int> tips;
  for (int f = 0; f < kFingers; ++f) {
    const int pip = hand.finger_first[f] + 2;
    s.CoupleJoints(id, pip, pip + 1, ref->ratio);
    Coupling c;
    c.body_a = -1;
    c.body_b = first_body + hand.finger_first[f] + 3;
    c.frame_b = At(Vec3(kScale[f] * kPhalanx[2], 0, 0));
    c.hard = true;
    c.rows = 0x7;  // translation: the fingertip's position, its orientation free
    tips.push_back(s.AddCoupling(c));
  }
  s.EliminateJointCouplings(p.at("eliminate") == 1.0);
  // Each step: every fingertip's frame where its path is now, moving to where it is next.
  sc.before_step = [ref, tips](MultibodySystem& sys) {
    const double t = sys.time(), dt = sys.options().dt;
    const std::array<Vec3, kFingers> now = ref->Tips(t), next = ref->Tips(t + dt);
    for (int f = 0; f < kFingers; ++f)
      sys.SetCouplingFrame(tips[f], At(now[f]), (next[f] - now[f]) / dt, Vec3::Zero());
  };
  return sc;
}

}  // namespace ncp
