// The nut of a bolt–nut pair as a triangle mesh: the internal thread is the bolt's basic
// profile, opened radially by a clearance, swept along the same right-hand helix over the nut's
// height; the outside is a hexagonal prism. Only the thread faces can touch the bolt.
#pragma once

#include "problems/physics/sdf/dish_sdf.h"
#include "problems/physics/sdf/thread_sdf.h"

namespace ncp::physics {

struct NutOptions {
  double height = 0.038;        // m (ISO 4032 M48: 38 mm)
  double across_flats = 0.075;  // m (ISO 4032 M48: 75 mm)
  double clearance = 1e-4;      // radial opening of the internal thread [m]
  int segments_per_turn = 32;   // mesh resolution along the helix
};

struct NutMesh {
  TriangleMesh mesh;
  int thread_triangles = 0;      // the first ones: the internal thread
  double volume = 0.0;           // solid volume for the mass [m³]
  Eigen::Matrix3d unit_inertia;  // inertia about the nut's axis origin per kg, nut frame
  Eigen::Vector3d com;           // centre of mass, nut frame
};

// The nut in its own frame: axis z, from z = 0 to height; throws ncp::Error on bad options.
NutMesh MakeNut(const ThreadSdf& bolt, const NutOptions& o);

}  // namespace ncp::physics
