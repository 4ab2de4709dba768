#include "problems/scenarios/sdf/single_step.h"

#include <cmath>
#include <fmt/format.h>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp {

void ParseScenarioParams(const std::string& scenario, const std::map<std::string, std::string>& given,
                         const std::map<std::string, double*>& reals,
                         const std::map<std::string, int*>& ints) {
  for (const auto& [k, v] : given) {
    double x = 0.0;
    try {
      std::size_t used = 0;
      x = std::stod(v, &used);
      if (used != v.size()) throw std::invalid_argument(v);
    } catch (const std::exception&) {
      throw Error(fmt::format("{}.{} = {}: not a number", scenario, k, v));
    }
    if (auto it = reals.find(k); it != reals.end()) {
      *it->second = x;
    } else if (auto jt = ints.find(k); jt != ints.end()) {
      if (x != std::floor(x) || std::abs(x) > 1e9)
        throw Error(fmt::format("{}.{} = {}: must be an integer", scenario, k, v));
      *jt->second = static_cast<int>(x);
    } else {
      std::string known;
      for (const auto& [n, q] : reals) known += n + " ";
      for (const auto& [n, q] : ints) known += n + " ";
      throw Error(fmt::format("{}.{}: unknown parameter (known: {})", scenario, k, known));
    }
  }
}

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
