// One-point contacts from FCL's narrow phase, for the pairs without a manifold of their own
// (sphere–sphere, sphere–box, capsules and cylinders against anything but a plane, and the box–box
// cases that BoxBoxContacts leaves undecided).
#pragma once

#include <fcl/narrowphase/collision_request.h>
#include <fcl/narrowphase/collision_result.h>
#include <fcl/narrowphase/distance_request.h>
#include <fcl/narrowphase/distance_result.h>

#include <vector>

#include "problems/physics/collision/fcl_shapes.h"
#include "problems/physics/geometry.h"

namespace ncp::physics {

// Holds the FCL requests and results so that repeated queries reuse their storage.
class FclPairContacts {
 public:
  FclPairContacts();

  // Appends the contacts of a against b (normal from a to b, geom ids left for the caller):
  // fcl::collide when they penetrate (gap = −depth, FCL's normal already points from its first
  // object to its second), else fcl::distance with nearest points when the distance is below the
  // margin (gap = distance, normal = (p_b − p_a)/|p_b − p_a|, position midway).
  void Append(const GeomObject& a, const Shape& shape_a, const GeomObject& b, const Shape& shape_b,
              double margin, std::vector<ContactPoint>& out);

 private:
  fcl::CollisionRequestd collide_request_;
  fcl::CollisionResultd collide_result_;
  fcl::DistanceRequestd distance_request_;
  fcl::DistanceResultd distance_result_;
};

}  // namespace ncp::physics
