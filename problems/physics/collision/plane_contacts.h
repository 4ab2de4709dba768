// Contact manifolds between a plane and a sphere, box, capsule or cylinder. Each candidate point
// of the shape (sphere bottom, box vertex, capsule end sphere, cylinder rim point) whose signed
// distance to the plane is below the margin becomes a contact: several points let a resting shape
// stand still, which one deepest point cannot.
#pragma once

#include <vector>

#include "problems/physics/geometry.h"

namespace ncp::physics {

// Appends the contacts of `shape` at `pose` against the plane whose shape frame is `plane`, with
// the plane as geom a (normal = plane normal) and geom ids left for the caller. A box gives at most
// its 4 deepest vertices, a capsule 2 points, a cylinder 4 per rim; a plane gives none.
void PlaneContacts(const Pose& plane, const Shape& shape, const Pose& pose, double margin,
                   std::vector<ContactPoint>& out);

}  // namespace ncp::physics
