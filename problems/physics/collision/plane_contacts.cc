#include "problems/physics/collision/plane_contacts.h"

#include <algorithm>
#include <array>

namespace ncp::physics {
namespace {

// Appends the shape point p when its signed distance to the plane (n, o) is below the margin; the
// contact sits halfway between p and the plane.
void AddIfNear(const Vec3& n, const Vec3& o, const Vec3& p, double margin,
               std::vector<ContactPoint>& out) {
  const double gap = n.dot(p - o);
  if (gap >= margin) return;
  ContactPoint c;
  c.position = p - 0.5 * gap * n;
  c.normal = n;
  c.gap = gap;
  out.push_back(c);
}

void BoxPoints(const Vec3& n, const Vec3& o, const Vec3& half, const Pose& pose, double margin,
               std::vector<ContactPoint>& out) {
  std::array<Vec3, 8> vertex;
  std::array<double, 8> gap;
  std::array<int, 8> near;
  int count = 0;
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner((k & 1) ? half.x() : -half.x(), (k & 2) ? half.y() : -half.y(),
                      (k & 4) ? half.z() : -half.z());
    vertex[k] = pose * corner;
    gap[k] = n.dot(vertex[k] - o);
    if (gap[k] < margin) near[count++] = k;
  }
  // Only a box thinner than the margin brings more than a face: its 4 deepest vertices suffice.
  if (count > 4) {
    std::stable_sort(near.begin(), near.begin() + count,
                     [&](int a, int b) { return gap[a] < gap[b]; });
    count = 4;
  }
  for (int i = 0; i < count; ++i) AddIfNear(n, o, vertex[near[i]], margin, out);
}

// Each rim contributes its deepest point, the opposite one and the two halfway between, so that a
// cylinder on its side gets one point per rim and one standing on a cap gets four.
void CylinderPoints(const Vec3& n, const Vec3& o, const Shape& shape, const Pose& pose,
                    double margin, std::vector<ContactPoint>& out) {
  const Vec3 axis = pose.linear().col(2);
  const Vec3 across = n - n.dot(axis) * axis;  // plane normal within the rim plane
  const double norm = across.norm();
  // Upright on the plane every rim point is equally deep: take the cylinder's own axes.
  const Vec3 t1 = norm > 1e-9 ? Vec3(across / norm) : Vec3(pose.linear().col(0));
  const Vec3 t2 = axis.cross(t1);
  const double r = shape.radius;
  for (const double side : {-1.0, 1.0}) {
    const Vec3 center = pose.translation() + side * shape.half_length * axis;
    AddIfNear(n, o, center - r * t1, margin, out);
    AddIfNear(n, o, center + r * t1, margin, out);
    AddIfNear(n, o, center - r * t2, margin, out);
    AddIfNear(n, o, center + r * t2, margin, out);
  }
}

}  // namespace

void PlaneContacts(const Pose& plane, const Shape& shape, const Pose& pose, double margin,
                   std::vector<ContactPoint>& out) {
  const Vec3 n = plane.linear().col(2);
  const Vec3 o = plane.translation();
  const Vec3 c = pose.translation();
  switch (shape.type) {
    case ShapeType::kSphere:
      AddIfNear(n, o, c - shape.radius * n, margin, out);
      break;
    case ShapeType::kBox:
      BoxPoints(n, o, shape.half_extents, pose, margin, out);
      break;
    case ShapeType::kCapsule: {
      const Vec3 axis = pose.linear().col(2);
      for (const double side : {-1.0, 1.0}) {
        AddIfNear(n, o, c + side * shape.half_length * axis - shape.radius * n, margin, out);
      }
      break;
    }
    case ShapeType::kCylinder:
      CylinderPoints(n, o, shape, pose, margin, out);
      break;
    case ShapeType::kPlane:
    case ShapeType::kSdf:  // world geoms both: never a pair
      break;
  }
}

}  // namespace ncp::physics
