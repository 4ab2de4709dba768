// laikago_drop (004 §VII-D2): N Laikago robots, 18 DOF each, PD-held in a standing pose, dropped
// one above the other so they land on the floor and on each other.
#include <fmt/format.h>

#include <random>

#include "common/error.h"

#include "problems/physics/dynamics/urdf_loader.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

Scene MakeLaikagoDrop(const std::map<std::string, double>& p, std::uint64_t seed) {
  UrdfOptions uo;
  uo.mu = p.at("mu");
  auto model =
      std::make_shared<ArticulatedModel>(LoadUrdf(AssetDir() + "/laikago/laikago.urdf", uo));
  StepOptions so;
  so.margin = p.at("margin");
  Scene sc = NewScene(p, so);
  MultibodySystem& s = *sc.system;
  AddFloor(s, p.at("mu"));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const int n = static_cast<int>(p.at("robots"));
  // Stance: hips 0, thighs 0.7, calves −1.4 (Laikago joint order per leg: hip, thigh, calf).
  Eigen::VectorXd stance = model->NeutralConfiguration();
  for (const Link& l : model->links) {
    if (l.joint != JointType::kRevolute) continue;
    if (l.name.find("thigh") != std::string::npos) stance[l.q_index] = 0.7;
    if (l.name.find("calf") != std::string::npos) stance[l.q_index] = -1.4;
  }
  PdGains pd;
  pd.kp = p.at("kp");
  pd.kd = p.at("kd");
  pd.target = stance;
  // Staggered pile without initial overlap: robots alternate between two columns and by a
  // quarter turn of yaw, with offsets of a few centimetres; each is placed at the lowest height
  // (in 1 cm steps) where every gap to the floor and to the robots below exceeds `clearance`,
  // found with the collision detection itself. So they land on each other within moments.
  const double column = p.at("column_gap"), clearance = p.at("clearance");
  std::vector<Eigen::VectorXd> placed;
  for (int r = 0; r < n; ++r) {
    Eigen::VectorXd q = stance;
    q[0] = (r % 2 ? 0.5 : -0.5) * column + 0.05 * u(rng);
    q[1] = 0.05 * u(rng);
    const Eigen::Quaterniond rot =
        Eigen::AngleAxisd((r % 2) * 1.5708 + 0.3 * u(rng), Vec3::UnitZ()) *
        Eigen::AngleAxisd(0.1 * u(rng), Vec3::UnitX()) *
        Eigen::AngleAxisd(0.1 * u(rng), Vec3::UnitY());
    q[3] = rot.w(), q[4] = rot.x(), q[5] = rot.y(), q[6] = rot.z();
    for (q[2] = 0.45;; q[2] += 0.01) {
      if (q[2] > 0.45 + 2.0 * (r + 1))  // far above any robot placed so far: cannot happen
        throw Error(fmt::format("laikago_drop: robot {}: no free placement found", r));
      StepOptions probe_opt;
      probe_opt.margin = clearance;
      MultibodySystem probe(probe_opt);
      AddFloor(probe, 1.0);
      for (const Eigen::VectorXd& qp : placed)
        probe.AddInstance(model, qp, Eigen::VectorXd::Zero(model->nv));
      probe.AddInstance(model, q, Eigen::VectorXd::Zero(model->nv));
      probe.Finalize();
      std::vector<ContactPoint> contacts;
      probe.BuildProblem(&contacts);
      const int last = static_cast<int>(placed.size());  // the candidate's instance index
      bool clear = true;
      for (const ContactPoint& c : contacts) {
        const int ia = c.geom_a >= 0 ? probe.GeomInstance(c.geom_a) : -1;
        const int ib = c.geom_b >= 0 ? probe.GeomInstance(c.geom_b) : -1;
        if (ia == last || ib == last) clear = false;
      }
      if (clear) break;
    }
    placed.push_back(q);
    s.AddInstance(model, q, Eigen::VectorXd::Zero(model->nv), pd);
  }
  s.Finalize();
  return sc;
}

}  // namespace ncp
