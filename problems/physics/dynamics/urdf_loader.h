// Loads a robot from URDF (urdfdom) as an ArticulatedModel with a floating base. Links attached
// by fixed joints are merged into their parent (inertia and collision geometry), so every link
// of the result moves; collision primitives (box, sphere, cylinder) become Geoms, meshes are
// rejected.
#pragma once

#include <string>

#include "problems/physics/dynamics/articulated_model.h"

namespace ncp::physics {

struct UrdfOptions {
  bool floating_base = true;  // false: the root is welded to the world
  double mu = 0.8;            // friction of every collision geom
};

// Throws ncp::Error naming the file and the element on a missing file or unsupported content.
ArticulatedModel LoadUrdf(const std::string& path, const UrdfOptions& opt = {});

}  // namespace ncp::physics
