// The chain scene (003 §6, Fig. 5a/5b): free links held by friction joints (5 implicit contacts,
// joint-friction rows, each) and nothing else; the rows' Jacobian against finite differences of
// the contact points' motion; and stepped as `generate` steps it (the scene's stepper, cold
// started) the joints hold together, friction stops the chain, a frictionless chain keeps
// swinging, and a larger joint radius stops it sooner (003 Fig. 5b).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "common/error.h"
#include "harness/runner.h"
#include "problems/model/validate.h"
#include "tests/scene_support.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

using physics::Pose;
using physics::Vec3;

using testing::CountConstraints;

Scene ChainScene(const std::string& params) {
  const SceneEntry& e = *FindScene("chain");
  return e.build(SceneParams(e, ParseKeyValues(params)), 1);
}

// Joint k's angle: the rotation of body b relative to body a (the world for k = 0) about the
// joint's axis (all links start aligned, so the relative rotation starts at the identity).
double JointAngle(const physics::MultibodySystem& s, int k) {
  const physics::FrictionJoint& j = s.friction_joints()[k];
  const Eigen::Matrix3d Ra =
      j.body_a >= 0 ? Eigen::Matrix3d(s.BodyPose(j.body_a).linear()) : Eigen::Matrix3d::Identity();
  const Eigen::AngleAxisd rel(Ra.transpose() * s.BodyPose(j.body_b).linear());
  const Vec3 axis = j.frame_b.linear().col(2);  // the axis in body b's (= a's at rest) frame
  return rel.angle() * rel.axis().dot(axis);
}

// The largest |gap| of the joints' implicit contacts: e_n = erp · gap / dt.
double WorstGap(const ContactProblem& p, const physics::StepOptions& o) {
  double worst = 0.0;
  for (const Constraint& c : p.constraints)
    worst = std::max(worst, std::abs(p.e[c.row]) * o.dt / o.erp);
  return worst;
}

struct ChainRun {
  std::vector<double> stop_time;  // per joint: from when on |joint rate| stayed below kRate
  std::vector<double> final_rate;
  std::vector<std::vector<double>> rates;  // per step, per joint [rad/s]
  double dt = 0.0;
  // Per joint: the end of the last step at which |rate| ≥ threshold (0: never).
  std::vector<double> StopTimes(double threshold) const {
    std::vector<double> t(final_rate.size(), 0.0);
    for (std::size_t s = 0; s < rates.size(); ++s)
      for (std::size_t k = 0; k < t.size(); ++k)
        if (std::abs(rates[s][k]) >= threshold) t[k] = (s + 1) * dt;
    return t;
  }
  double worst_gap = 0.0, worst_res004 = 0.0, seconds = 0.0;
};

constexpr double kRate = 1e-3;  // rad/s: a joint slower than this counts as stopped

// Steps the scene as `generate` does (its stepper and iterations, cold started) for `steps`.
ChainRun StepChain(const std::string& params, int steps) {
  const SceneEntry& entry = *FindScene("chain");
  const auto t0 = std::chrono::steady_clock::now();
  Scene sc = entry.build(SceneParams(entry, ParseKeyValues(params)), 1);
  physics::MultibodySystem& s = *sc.system;
  const int n = static_cast<int>(s.friction_joints().size());
  const SolverJob job = MakeSolverJobs({entry.stepper}, {})[0];
  RunOptions ro;
  ro.budget.iters = entry.stepper_iters;
  ChainRun r;
  r.stop_time.assign(n, 0.0);
  r.final_rate.assign(n, 0.0);
  std::vector<double> angle(n);
  for (int k = 0; k < n; ++k) angle[k] = JointAngle(s, k);
  for (int step = 0; step < steps; ++step) {
    const ContactProblem p = s.BuildProblem();
    r.worst_gap = std::max(r.worst_gap, WorstGap(p, s.options()));
    const Evaluator ev(p);
    WarmStart sol;
    const RunRecord rec = RunOne(p, ev, job, ro, nullptr, 0, &sol);
    r.worst_res004 = std::max(r.worst_res004, rec.final_metrics[Metric::kRes004]);
    s.Advance(sol.v);
    for (int k = 0; k < n; ++k) {
      const double a = JointAngle(s, k);
      r.final_rate[k] = (a - angle[k]) / s.options().dt;
      angle[k] = a;
      if (std::abs(r.final_rate[k]) >= kRate) r.stop_time[k] = s.time();
    }
    r.rates.push_back(r.final_rate);
  }
  r.dt = s.options().dt;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string Times(const std::vector<double>& t) {
  std::string s;
  for (double x : t) s += fmt::format(" {:.3f}", x);
  return s;
}

TEST(ChainScene, OnlyJointFrictionRowsBuiltAtRest) {
  for (const int links : {1, 4, 10}) {
    SCOPED_TRACE(links);
    Scene sc = ChainScene(fmt::format("links={},mu=0.4", links));
    const ContactProblem p = sc.system->BuildProblem();
    EXPECT_EQ(p.num_dofs(), 6 * links);
    EXPECT_EQ(p.num_constraints(), 5 * links);
    EXPECT_EQ(CountConstraints(p, ConstraintType::kJointFriction), 5 * links);
    EXPECT_EQ(p.num_rows(), 10 * links);
    EXPECT_EQ(p.num_contacts(), 0);
    for (const Constraint& c : p.constraints) EXPECT_EQ(c.mu, 0.4);
    ValidateOptions vo;
    vo.structure_tol = 1e-12;
    EXPECT_EQ(Validate(p, vo), "");
    EXPECT_EQ(static_cast<int>(p.structure.subsystems.size()), links);  // one free body each
    EXPECT_LT(p.e.cwiseAbs().maxCoeff(), 1e-12);  // built at rest with the joints closed
  }
}

TEST(ChainScene, RejectsBadJoints) {
  Scene sc = ChainScene("links=2");
  physics::MultibodySystem& s = *sc.system;
  physics::FrictionJoint j;
  j.body_b = 2;  // no such body
  EXPECT_THROW(s.AddFrictionJoint(j), Error);
  j.body_b = 1;
  j.body_a = 1;  // itself
  EXPECT_THROW(s.AddFrictionJoint(j), Error);
  j.body_a = 0;
  j.radius = 0;
  EXPECT_THROW(s.AddFrictionJoint(j), Error);
  j.radius = 0.01;
  j.mu = -1;
  EXPECT_THROW(s.AddFrictionJoint(j), Error);
  j.mu = 0.2;
  EXPECT_EQ(s.AddFrictionJoint(j), 2);
}

TEST(ChainScene, JacobianIsTheContactPointsRelativeVelocity) {
  // Move every link with a random twist for a short h; each contact's material points on b and
  // on a (both at the contact point at rest) part by (J v) h along the rows' n and t, to O(h²).
  Scene sc = ChainScene("links=3");
  physics::MultibodySystem& s = *sc.system;
  const ContactProblem p = s.BuildProblem();
  const double r = sc.params.at("radius"), h = sc.params.at("half_length");
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  const Vec3 point[5] = {r * x + h * z, r * y + h * z, r * x - h * z, r * y - h * z, r * x + h * z};
  const Vec3 normal[5] = {x, y, x, y, z}, tangent[5] = {y, -x, y, -x, y};
  std::vector<Pose> before;
  for (int b = 0; b < s.num_bodies(); ++b) before.push_back(s.BodyPose(b));
  std::srand(7);
  const Vec v = Vec::Random(p.num_dofs());
  const Vec Jv = p.J * v;
  const double step = 1e-7;
  physics::StepOptions o = s.options();
  o.dt = step;
  s.set_options(o);
  s.Advance(v);
  double worst = 0.0;
  int row = 0;
  for (const physics::FrictionJoint& j : s.friction_joints()) {
    const Pose frame_b = before[j.body_b] * j.frame_b;
    for (int k = 0; k < 5; ++k, row += 2) {
      const Vec3 xw = frame_b * point[k];
      const Vec3 on_b = s.BodyPose(j.body_b) * (before[j.body_b].inverse() * xw);
      const Vec3 on_a =
          j.body_a < 0 ? xw : s.BodyPose(j.body_a) * (before[j.body_a].inverse() * xw);
      const Vec3 rate = (on_b - on_a) / step;
      const Vec3 n = frame_b.linear() * normal[k], t = frame_b.linear() * tangent[k];
      worst =
          std::max({worst, std::abs(n.dot(rate) - Jv[row]), std::abs(t.dot(rate) - Jv[row + 1])});
    }
  }
  EXPECT_EQ(row, p.num_rows());
  EXPECT_LT(worst, 1e-5) << "|J v − finite difference|, |v| ~ 1";
}

TEST(ChainScene, FrictionStopsTheChainAndFreeJointsKeepSwinging) {
  // 5 links with the scene's stepper: 2 s (480 steps of 1/240 s) with friction, 1 s without.
  const ChainRun rough = StepChain("links=5", 480);
  const ChainRun smooth = StepChain("links=5,mu=0", 240);
  std::printf(
      "chain (5 links, default mu): joints stop at [s]%s; worst gap %.2g m; worst step res004 "
      "%.2g; %.2f s\n",
      Times(rough.stop_time).c_str(), rough.worst_gap, rough.worst_res004, rough.seconds);
  for (double th : {1e-2, 1e-1})
    std::printf("  below %g rad/s from [s]%s\n", th, Times(rough.StopTimes(th)).c_str());
  std::printf("chain (5 links, mu 0, 1 s): final joint rates [rad/s]%s; worst gap %.2g m; %.2f s\n",
              Times(smooth.final_rate).c_str(), smooth.worst_gap, smooth.seconds);
  // The joints hold: erp 0.5 closes each step's drift (measured 3.4e-5 m with friction).
  EXPECT_LT(rough.worst_gap, 1e-3);
  EXPECT_LT(smooth.worst_gap, 5e-3);
  // Every joint moved and then stopped (below kRate for the rest of the run) before the end
  // (measured with bisp stepping: 0.779 1.404 1.342 1.342 1.246 s, root to tip).
  for (std::size_t k = 0; k < rough.stop_time.size(); ++k) {
    EXPECT_GT(rough.stop_time[k], 0.1) << "joint " << k << " never moved";
    EXPECT_LT(rough.stop_time[k], 1.95) << "joint " << k << " still turns";
  }
  // 003 Fig. 5a: the root joint stops first (measured 0.78 s, the others 1.25–1.40 s); the rest
  // stop in no fixed order.
  for (std::size_t k = 1; k < rough.stop_time.size(); ++k)
    EXPECT_LT(rough.stop_time[0], rough.stop_time[k])
        << "joint " << k << " stopped before the root";
  // Without friction the chain still swings at the end.
  double fastest = 0.0;
  for (double w : smooth.final_rate) fastest = std::max(fastest, std::abs(w));
  EXPECT_GT(fastest, 0.5);
}

TEST(ChainScene, LargerJointRadiusStopsTheChainSooner) {
  const ChainRun small = StepChain("links=5", 480);
  const ChainRun large = StepChain("links=5,radius=0.05", 480);
  const double t_small = *std::max_element(small.stop_time.begin(), small.stop_time.end());
  const double t_large = *std::max_element(large.stop_time.begin(), large.stop_time.end());
  std::printf(
      "chain (5 links): all joints stopped at %.3f s (radius 2.5 cm), %.3f s (5 cm); joints"
      "%s /%s\n",
      t_small, t_large, Times(small.stop_time).c_str(), Times(large.stop_time).c_str());
  EXPECT_LT(t_large, t_small);
}

}  // namespace
}  // namespace ncp
