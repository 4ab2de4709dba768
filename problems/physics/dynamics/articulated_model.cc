#include "problems/physics/dynamics/articulated_model.h"

#include <fmt/format.h>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {

int ArticulatedModel::Nq(JointType t) {
  return t == JointType::kFloating ? 7 : t == JointType::kFixed ? 0 : 1;
}
int ArticulatedModel::Nv(JointType t) {
  return t == JointType::kFloating ? 6 : t == JointType::kFixed ? 0 : 1;
}

void ArticulatedModel::Finalize() {
  nq = nv = 0;
  for (std::size_t i = 0; i < links.size(); ++i) {
    Link& l = links[i];
    if (l.parent >= static_cast<int>(i))
      throw Error(fmt::format("model '{}': link[{}] '{}': parent {} must precede it", name, i,
                              l.name, l.parent));
    if (l.joint == JointType::kFloating && l.parent != -1)
      throw Error(fmt::format("model '{}': link '{}': a floating joint must attach to the world",
                              name, l.name));
    if (!(l.mass > 0))
      throw Error(
          fmt::format("model '{}': link '{}': mass = {}: must be > 0", name, l.name, l.mass));
    l.q_index = nq;
    l.v_index = nv;
    nq += Nq(l.joint);
    nv += Nv(l.joint);
  }
}

Eigen::VectorXd ArticulatedModel::NeutralConfiguration() const {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(nq);
  for (const Link& l : links)
    if (l.joint == JointType::kFloating) q[l.q_index + 3] = 1.0;  // quaternion w
  return q;
}

Mat6 SpatialInertia(const Link& l) {
  const Mat3 C = Skew(l.com);
  Mat6 M;
  M << l.mass * Mat3::Identity(), -l.mass * C, l.mass * C, l.inertia - l.mass * C * C;
  return M;
}

ArticulatedModel MakeFreeBody(const std::string& name, double mass, const Mat3& inertia,
                              std::vector<Geom> geoms) {
  ArticulatedModel m;
  m.name = name;
  Link l;
  l.name = name;
  l.joint = JointType::kFloating;
  l.mass = mass;
  l.inertia = inertia;
  l.geoms = std::move(geoms);
  m.links.push_back(l);
  m.Finalize();
  return m;
}

}  // namespace ncp::physics
