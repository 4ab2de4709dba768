// Contact between a signed distance field and a sphere (004 §VII-C: particles in an SDF bottle).
// For a sphere the closest-point search is analytic: the gap is φ at the center minus the
// radius and the normal is ∇φ there, so no mesh or Frank–Wolfe iteration is involved.
#pragma once

#include <vector>

#include "problems/physics/geometry.h"
#include "problems/physics/sdf/sdf.h"

namespace ncp::physics {

// Appends the contact of the sphere (radius, world center) against the field whose frame is at
// `sdf_pose`, when its gap is below the margin: SDF as geom a (normal = ∇φ in the world, out of
// the SDF's solid towards the sphere), position halfway between the two surfaces, geom ids left
// for the caller. Returns whether a contact was appended.
bool SdfSphereContact(const Sdf& sdf, const Pose& sdf_pose, double radius, const Vec3& center,
                      double margin, std::vector<ContactPoint>& out);

}  // namespace ncp::physics
