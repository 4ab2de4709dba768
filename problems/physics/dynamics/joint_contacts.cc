#include "problems/physics/dynamics/joint_contacts.h"

#include <cmath>

#include <fmt/format.h>

#include "common/error.h"
#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {
namespace {

struct LocalContact {
  Vec3 point, normal, tangent;  // in the joint frame; tangent = z × (radial direction)
};

std::array<LocalContact, kRevoluteContacts> Layout(double r, double h) {
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  return {{{r * x + h * z, x, y},
           {r * y + h * z, y, -x},
           {r * x - h * z, x, y},
           {r * y - h * z, y, -x},
           {r * x + h * z, z, y}}};
}

// Row d·(velocity of the body's material point at world x) for a body twist in the body frame.
Eigen::Matrix<double, 1, 6> PointRow(const Pose& body, const Vec3& x, const Vec3& d) {
  const Vec3 p = body.inverse() * x;              // the point in the body frame
  const Vec3 db = body.linear().transpose() * d;  // the direction in the body frame
  Eigen::Matrix<double, 1, 6> row;
  row.head<3>() = db.transpose();
  row.tail<3>() = p.cross(db).transpose();  // d·(ω × p) = ω·(p × d)
  return row;
}

}  // namespace

void ValidateFrictionJoint(const FrictionJoint& j) {
  if (!(j.radius > 0 && std::isfinite(j.radius)))
    throw Error(fmt::format("joint radius = {}: must be finite and > 0", j.radius));
  if (!(j.half_length > 0 && std::isfinite(j.half_length)))
    throw Error(fmt::format("joint half_length = {}: must be finite and > 0", j.half_length));
  if (!(j.mu >= 0 && std::isfinite(j.mu)))
    throw Error(fmt::format("joint mu = {}: must be finite and >= 0", j.mu));
}

std::array<ImplicitContactRows, kRevoluteContacts> EvaluateFrictionJoint(const FrictionJoint& j,
                                                                         const Pose& pose_a,
                                                                         const Pose& pose_b) {
  const Pose joint_b = pose_b * j.frame_b;
  Pose joint_a = j.body_a >= 0 ? pose_a * j.frame_a : j.frame_a;
  // The joint's own rotation carries b's contact points around the axis, away from a's: frame a
  // is first turned with b about the axis by the twist of their relative rotation (swing-twist
  // split), so that the gaps measure the joint's error only, not its motion.
  const Eigen::Quaterniond rel(joint_a.linear().transpose() * joint_b.linear());
  joint_a = joint_a * Eigen::AngleAxisd(2.0 * std::atan2(rel.z(), rel.w()), Vec3::UnitZ());
  std::array<ImplicitContactRows, kRevoluteContacts> out;
  const auto layout = Layout(j.radius, j.half_length);
  for (int k = 0; k < kRevoluteContacts; ++k) {
    const LocalContact& c = layout[k];
    const Vec3 xb = joint_b * c.point, xa = joint_a * c.point;
    const Vec3 n = joint_b.linear() * c.normal, t = joint_b.linear() * c.tangent;
    ImplicitContactRows& rows = out[k];
    rows.block_b.row(0) = PointRow(pose_b, xb, n);
    rows.block_b.row(1) = PointRow(pose_b, xb, t);
    rows.block_a.setZero();
    if (j.body_a >= 0) {  // the parent's material point now at xb, moving the other way
      rows.block_a.row(0) = -PointRow(pose_a, xb, n);
      rows.block_a.row(1) = -PointRow(pose_a, xb, t);
    }
    rows.gap = n.dot(xb - xa);
  }
  return out;
}

}  // namespace ncp::physics
