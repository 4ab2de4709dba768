#include "problems/physics/collision/fcl_shapes.h"

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "problems/physics/sdf/sdf.h"

namespace ncp::physics {

std::shared_ptr<fcl::CollisionGeometryd> MakeFclGeometry(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return std::make_shared<fcl::Sphered>(shape.radius);
    case ShapeType::kBox:
      return std::make_shared<fcl::Boxd>(2.0 * shape.half_extents);
    case ShapeType::kCapsule:
      return std::make_shared<fcl::Capsuled>(shape.radius, 2.0 * shape.half_length);
    case ShapeType::kCylinder:
      return std::make_shared<fcl::Cylinderd>(shape.radius, 2.0 * shape.half_length);
    case ShapeType::kPlane:
    case ShapeType::kSdf:
      break;
  }
  throw std::invalid_argument("MakeFclGeometry: planes and SDFs have no FCL geometry");
}

fcl::AABBd WorldAabb(const Shape& shape, const Pose& pose, double pad) {
  const Mat3 r = pose.linear();
  const Vec3 axis = r.col(2);
  Vec3 extent = Vec3::Zero();
  switch (shape.type) {
    case ShapeType::kSphere:
      extent.setConstant(shape.radius);
      break;
    case ShapeType::kBox:
      extent = r.cwiseAbs() * shape.half_extents;
      break;
    case ShapeType::kCapsule:
      extent = axis.cwiseAbs() * shape.half_length + Vec3::Constant(shape.radius);
      break;
    case ShapeType::kCylinder:
      // A rim disc of normal u spans r·sqrt(1 − u_i²) along world axis i.
      for (int i = 0; i < 3; ++i) {
        extent[i] = std::abs(axis[i]) * shape.half_length +
                    shape.radius * std::sqrt(std::max(0.0, 1.0 - axis[i] * axis[i]));
      }
      break;
    case ShapeType::kPlane:
    case ShapeType::kSdf:
      throw std::invalid_argument("WorldAabb: planes and SDFs stay out of the broad phase");
  }
  extent.array() += pad;
  const Vec3 c = pose.translation();
  return fcl::AABBd(c - extent, c + extent);
}

double BoundingRadius(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return shape.radius;
    case ShapeType::kBox:
      return shape.half_extents.norm();
    case ShapeType::kCapsule:
      return shape.half_length + shape.radius;
    case ShapeType::kCylinder:
      return std::hypot(shape.half_length, shape.radius);
    case ShapeType::kSdf:
      if (shape.sdf) return shape.sdf->BoundingRadius();
      break;
    case ShapeType::kPlane:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

GeomObject::GeomObject(int geom, const std::shared_ptr<fcl::CollisionGeometryd>& geometry)
    : fcl::CollisionObjectd(geometry), geom_(geom) {}

void GeomObject::SetPose(const Pose& pose, const fcl::AABBd& box) {
  setTransform(pose);
  aabb = box;
}

}  // namespace ncp::physics
