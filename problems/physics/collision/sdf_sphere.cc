#include "problems/physics/collision/sdf_sphere.h"

namespace ncp::physics {

bool SdfSphereContact(const Sdf& sdf, const Pose& sdf_pose, double radius, const Vec3& center,
                      double margin, std::vector<ContactPoint>& out) {
  Vec3 grad;
  const double phi = sdf.Eval(sdf_pose.inverse() * center, &grad);
  const double gap = phi - radius;
  if (!(gap < margin)) return false;
  const double norm = grad.norm();
  // An exact field has |∇φ| = 1 except on its skeleton, where any unit subgradient will do.
  const Vec3 n = sdf_pose.linear() * (norm > 0 ? Vec3(grad / norm) : Vec3::UnitZ());
  ContactPoint c;
  c.normal = n;
  c.gap = gap;
  // The field's surface lies φ behind the center along −n, the sphere's r behind it.
  c.position = center - 0.5 * (phi + radius) * n;
  out.push_back(c);
  return true;
}

}  // namespace ncp::physics
