// Pieces shared by the single-step SDF scenarios (bolt_nut, dish_piling): random wrenches and the
// contact rows of a free rigid body.
#pragma once

#include <map>
#include <random>
#include <string>

#include "problems/physics/geometry.h"

namespace ncp {

// Uniform in the ball of the given radius.
physics::Vec3 InBall(std::mt19937_64& rng, double radius);

// Rows [n; t1; t2] (frame F) of the velocity at world point p of a rigid body at pose T whose dofs
// are its body-frame twist [v; ω] about its origin: F R [I, −[p_body]].
Eigen::Matrix<double, 3, 6> RigidContactRows(const physics::Mat3& F, const physics::Pose& T,
                                             const physics::Vec3& p);

// Normal bias of a contact with signed gap g: a speculative one (g ≥ 0) closes at most its gap in
// one step, a penetration is removed at rate erp per step.
inline double NormalBias(double gap, double dt, double erp) {
  return gap >= 0 ? gap / dt : erp * gap / dt;
}

}  // namespace ncp
