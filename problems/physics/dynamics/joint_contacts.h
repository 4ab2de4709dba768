// Implicit contacts of a revolute joint (003 §5.2): the joint is a cylinder of radius r and
// half-length h about its axis z, and five contact points on its ends hold it together —
// radial normals x and y at z = +h and z = −h (the two translations across the axis and the two
// bending rotations) and one axial normal at (r, 0, h) (the translation along the axis). Each is
// a joint-friction constraint (ConstraintType::kJointFriction): its normal row is bilateral, its
// tangent row runs around the axis, so friction |λ_t| ≤ μ|λ_n| resists the joint's rotation with
// the lever arm r — a larger joint brakes harder under the same load (003 Fig. 5b). Five
// independent normals span exactly the five constrained directions, so a joint's normal impulses
// are unique given its friction (no indeterminacy to regularize); how a sticking joint's friction
// is shared among its five tangent rows (all on its one free rotation) is not.
#pragma once

#include <array>

#include "problems/physics/dynamics/articulated_model.h"

namespace ncp::physics {

inline constexpr int kRevoluteContacts = 5;

struct FrictionJoint {
  int body_a = -1;  // parent body (system index); −1: the world (frame_a is then in the world)
  int body_b = 0;   // child body
  // The joint frame in each body's frame; z is the revolute axis. At rest the two coincide.
  Pose frame_a = Pose::Identity(), frame_b = Pose::Identity();
  double radius = 0.01;       // r [m]: the friction torque's lever arm
  double half_length = 0.01;  // h [m]: half the cylinder's length along the axis
  double mu = 0.0;            // friction coefficient
};

// One implicit contact at the current poses.
struct ImplicitContactRows {
  Eigen::Matrix<double, 2, 6> block_a, block_b;  // rows [n; t] × body twist ([v; ω], body frame)
  // n · (x_b − x_a): how far the contact's points on b and a have drifted apart, a's point taken
  // after turning frame a with b about the axis (the joint's rotation opens no gap).
  double gap = 0.0;
};

// Throws ncp::Error on a non-positive or non-finite radius or half-length, or a negative μ.
void ValidateFrictionJoint(const FrictionJoint& j);

// The five implicit contacts of joint j (pose_a ignored for the world). The contact geometry
// follows body b; block_a is zero for the world.
std::array<ImplicitContactRows, kRevoluteContacts> EvaluateFrictionJoint(const FrictionJoint& j,
                                                                         const Pose& pose_a,
                                                                         const Pose& pose_b);

}  // namespace ncp::physics
