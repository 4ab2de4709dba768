// A damped spring between two points along the line joining them (one soft row: stretch only),
// at its rest length in the current pose: a coupling whose frame a sits at the first point with
// z along the line, with the line's length as rest offset (rod_coupling.h). Stay cables and
// canopy springs (003 §6); the row acts on both bodies' twists, a spring in maximal coordinates.
#pragma once

#include "problems/physics/system.h"

namespace ncp {

// body_a = −1: the first point is fixed in the world. Points in world coordinates at the
// system's current pose (call after MultibodySystem::Finalize). k [N/m] > 0, tau: Rayleigh time
// of D = τ k [s]. Returns the coupling index; throws ncp::Error on coincident points.
int AddLineSpring(physics::MultibodySystem& s, int body_a, const physics::Vec3& at_a, int body_b,
                  const physics::Vec3& at_b, double k, double tau);

}  // namespace ncp
