#include "problems/scenarios/sdf/single_step.h"

#include <cmath>

#include "problems/physics/dynamics/spatial.h"

namespace ncp {

physics::Vec3 InBall(std::mt19937_64& rng, double radius) {
  std::normal_distribution<double> g;
  const physics::Vec3 d = physics::Vec3(g(rng), g(rng), g(rng)).normalized();
  return radius * std::cbrt(std::uniform_real_distribution<double>(0, 1)(rng)) * d;
}

Eigen::Matrix<double, 3, 6> RigidContactRows(const physics::Mat3& F, const physics::Pose& T,
                                             const physics::Vec3& p) {
  Eigen::Matrix<double, 3, 6> G;
  G << physics::Mat3::Identity(), -physics::Skew(T.inverse() * p);
  return (F * T.linear()) * G;
}

}  // namespace ncp
