#include "problems/physics/sdf/dish_inertia.h"

#include <cmath>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp::physics {

DishMass DishMassProperties(const DishSdf& dish, double mass) {
  if (!(mass > 0) || !std::isfinite(mass))
    throw Error(fmt::format("dish.mass = {}: must be > 0", mass));
  // Green's theorem in the meridian half-plane: ∫ f dV = 2π ∫∫ r f dr dz = 2π ∮ Q dz with
  // Q(r, z) = ∫₀^r s f(s, z) ds; the axis closes the curve and has Q = 0. Each boundary segment
  // is integrated by 3-point Gauss (exact: Q is at most quartic along a segment).
  const std::vector<Eigen::Vector2d> c = dish.Boundary(dish.thickness() / 50.0);
  const double gx[3] = {-std::sqrt(0.6), 0.0, std::sqrt(0.6)}, gw[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  double vol = 0.0, mz = 0.0, mzz = 0.0, mrr = 0.0;  // ∫1, ∫z, ∫z², ∫r² over dV / 2π
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    const double dz = c[i + 1].y() - c[i].y();
    for (int g = 0; g < 3; ++g) {
      const Eigen::Vector2d q = c[i] + 0.5 * (1.0 + gx[g]) * (c[i + 1] - c[i]);
      const double r2 = q.x() * q.x(), w = 0.5 * gw[g] * dz;
      vol += w * r2 / 2, mz += w * q.y() * r2 / 2, mzz += w * q.y() * q.y() * r2 / 2;
      mrr += w * r2 * r2 / 4;
    }
  }
  // The walk's direction fixes the sign; every moment shares it.
  const double rho = mass / vol;  // per 2π: the 2π cancels in every ratio below
  DishMass m;
  m.mass = mass;
  m.com = Eigen::Vector3d(0.0, 0.0, mz / vol);
  const double izz = rho * mrr, ixx = rho * (mrr / 2 + mzz) - mass * m.com.z() * m.com.z();
  m.inertia = Eigen::Vector3d(ixx, ixx, izz).asDiagonal();
  return m;
}

}  // namespace ncp::physics
