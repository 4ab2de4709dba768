// Contacts between an SDF body and a triangle mesh (004 §VII-A): Frank–Wolfe on every triangle,
// a candidate where the minimum is below the margin, and k-means clustering of the candidates
// when there are more than a limit (120 in the paper).
#pragma once

#include <cstdint>
#include <vector>

#include "problems/physics/geometry.h"
#include "problems/physics/sdf/dish_sdf.h"
#include "problems/physics/sdf/sdf.h"

namespace ncp::physics {

// mesh_to_sdf maps mesh coordinates into the SDF's frame; contacts come back in the SDF's frame,
// normal = ∇φ (out of the SDF body, towards the mesh), gap = φ. first/count: the triangles used.
std::vector<ContactPoint> SdfMeshContacts(const Sdf& sdf, const TriangleMesh& mesh,
                                          const Pose& mesh_to_sdf, double margin, int first = 0,
                                          int count = -1);

// At most k contacts: Lloyd's k-means on the positions (k-means++ seeding from `seed`, 30
// rounds), keeping in each cluster its deepest contact. Deterministic in the seed.
std::vector<ContactPoint> ClusterContacts(const std::vector<ContactPoint>& contacts, int k,
                                          std::uint64_t seed);

}  // namespace ncp::physics
