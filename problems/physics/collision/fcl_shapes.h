// FCL counterparts of the geometry types: the collision geometry of a shape, its tight world box,
// and a collision object whose broad-phase box is set by the caller.
#pragma once

#include <fcl/geometry/collision_geometry.h>
#include <fcl/math/bv/AABB.h>
#include <fcl/narrowphase/collision_object.h>

#include <memory>

#include "problems/physics/geometry.h"

namespace ncp::physics {

// FCL geometry of a sphere, box, capsule or cylinder (FCL takes full lengths, Shape holds halves).
// Planes have none: they stay out of the broad phase (see CollisionWorld).
std::shared_ptr<fcl::CollisionGeometryd> MakeFclGeometry(const Shape& shape);

// Tight world AABB of a shape other than a plane or SDF at `pose`, grown by `pad` on every side.
fcl::AABBd WorldAabb(const Shape& shape, const Pose& pose, double pad);

// Radius about the shape origin of a sphere enclosing the shape (infinite for a plane; an SDF's
// own BoundingRadius).
double BoundingRadius(const Shape& shape);

// Collision object of one geom. FCL's own world box ignores the contact margin and, for a rotated
// shape, is the cube around the bounding sphere; this one takes the box computed by the caller.
class GeomObject : public fcl::CollisionObjectd {
 public:
  GeomObject(int geom, const std::shared_ptr<fcl::CollisionGeometryd>& geometry);

  int geom() const { return geom_; }

  // Sets the pose and the broad-phase box (read by the manager on its next update).
  void SetPose(const Pose& pose, const fcl::AABBd& box);

 private:
  int geom_;
};

}  // namespace ncp::physics
