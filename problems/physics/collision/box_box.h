// Box–box contact manifold by the separating-axis test. A face axis clips the incident face
// against the side planes of the reference face (Sutherland–Hodgman) and keeps up to 4 points
// below the reference face + margin; an edge axis gives the closest points of the two edges. FCL's
// box–box test gives several points only for penetrating boxes, none for boxes resting within the
// margin, so the manifold is computed here for both.
#pragma once

#include <vector>

#include "problems/physics/geometry.h"

namespace ncp::physics {

// Appends the contacts between box A (half extents, world pose) and box B, normal from A to B,
// geom ids left for the caller. Returns false when it cannot decide: the axis of least separation
// is below the margin but the clipped face keeps no point (boxes meeting corner to corner across a
// gap), or the two edges of an edge axis do not cross. The caller then asks FCL for one point.
bool BoxBoxContacts(const Vec3& half_a, const Pose& pose_a, const Vec3& half_b, const Pose& pose_b,
                    double margin, std::vector<ContactPoint>& out);

}  // namespace ncp::physics
