#include "problems/physics/geometry.h"

#include <cmath>

namespace ncp::physics {

Mat3 ContactFrame(const Vec3& normal) {
  const Vec3 n = normal.normalized();
  // Tangent from the world axis least aligned with n: continuous in n away from switch points.
  const Vec3 ref = std::abs(n.x()) < 0.57
                       ? Vec3::UnitX()
                       : (std::abs(n.y()) < 0.57 ? Vec3::UnitY() : Vec3::UnitZ());
  const Vec3 t1 = (ref - n * n.dot(ref)).normalized();
  Mat3 R;
  R.row(0) = n;
  R.row(1) = t1;
  R.row(2) = n.cross(t1);
  return R;
}

EllipticFrame EllipticContactFrame(const Vec3& normal, const Vec3& axis, double mu_x, double mu_y) {
  const Vec3 n = normal.normalized();
  const Vec3 in_plane = axis - n * n.dot(axis);
  Mat3 R = ContactFrame(n);
  if (in_plane.norm() > 1e-9 * axis.norm()) {
    R.row(1) = in_plane.normalized();
    R.row(2) = n.cross(Vec3(R.row(1)));
  }
  R.row(2) *= mu_y / mu_x;
  return {R, mu_x};
}

}  // namespace ncp::physics
