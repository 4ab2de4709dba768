// laikago_drop (004 §VII-D2): N Laikago robots, 18 DOF each, PD-held in a standing pose, dropped
// one above the other so they land on the floor and on each other.
#include <random>

#include "problems/physics/dynamics/urdf_loader.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

using namespace physics;

Scene MakeLaikagoDrop(const std::map<std::string, double>& p, std::uint64_t seed) {
  UrdfOptions uo;
  uo.mu = p.at("mu");
  auto model = std::make_shared<ArticulatedModel>(LoadUrdf(AssetDir() + "/laikago/laikago.urdf", uo));
  Scene sc;
  sc.params = p;
  StepOptions so;
  so.margin = p.at("margin");
  sc.system = std::make_unique<MultibodySystem>(so);
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
  // Staggered pile without initial overlap: two columns 0.25 m apart, each robot 0.42 m above
  // the previous one of its column, yaw alternating by a quarter turn, offsets of a few
  // centimetres, so they land on the floor, on each other and across the columns.
  const double column = p.at("column_gap");
  for (int r = 0; r < n; ++r) {
    Eigen::VectorXd q = stance;
    q[0] = (r % 2 ? 0.5 : -0.5) * column + 0.05 * u(rng);
    q[1] = 0.05 * u(rng);
    q[2] = 0.45 + 0.42 * (r / 2) + 0.21 * (r % 2);
    const Eigen::Quaterniond rot = Eigen::AngleAxisd(((r / 2) % 2) * 1.5708 + 0.3 * u(rng), Vec3::UnitZ()) *
                                   Eigen::AngleAxisd(0.1 * u(rng), Vec3::UnitX()) *
                                   Eigen::AngleAxisd(0.1 * u(rng), Vec3::UnitY());
    q[3] = rot.w(), q[4] = rot.x(), q[5] = rot.y(), q[6] = rot.z();
    PdGains pd;
    pd.kp = p.at("kp");
    pd.kd = p.at("kd");
    pd.target = stance;
    s.AddInstance(model, q, Eigen::VectorXd::Zero(model->nv), pd);
  }
  s.Finalize();
  return sc;
}

}  // namespace ncp
