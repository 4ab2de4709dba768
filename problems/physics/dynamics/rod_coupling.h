// Couplings of two bodies by six rows at a shared joint frame: three translational rows (x, y:
// shear across the rod axis, z: stretch along it) and three rotational rows (about x, y: bending,
// about z: twist). Each row is soft, λ = −k e − d J v̂ with k = K dt and d = D dt + K dt² like
// the PD rows (an implicit spring-damper), or hard (bilateral, the frames held together).
// A Cosserat rod is a chain of rigid links coupled this way at their shared ends (002 §V-C5,
// 000 §IV-A2) with K = diag(κGA, κGA, EA, EI, EI, GJ)/l. One side may be a world frame that
// moves on a prescribed path (a clamp, a gripper).
#pragma once

#include "problems/physics/dynamics/articulated_model.h"

namespace ncp::physics {

struct Coupling {
  int body_a = -1;  // system body index; −1: a world frame (frame_a is then in the world)
  int body_b = 0;   // system body index
  // The joint frame in each body's frame; z is the rod axis. The rows measure frame b relative
  // to frame a, in frame a's axes: at rest the two coincide.
  Pose frame_a = Pose::Identity(), frame_b = Pose::Identity();
  Vec6 stiffness = Vec6::Zero();  // K per row [x, y, z in N/m; about x, y, z in N m/rad]
  Vec6 damping = Vec6::Zero();    // D per row [N s/m; N m s/rad]; rows with K = 0 are left out
  bool hard = false;              // bilateral rows (stiffness and damping unused)
  // The offset of frame b from frame a at rest (position; rotation vector), so that a spring can
  // have a rest length: e = measured − rest (a stay cable: frame a's z along the cable, rest z =
  // its length, only the z row stiff).
  Vec6 rest = Vec6::Zero();
  // Which of the six rows exist (bit r: row r). A pin that leaves rotation free keeps only the
  // translation rows: bilateral rows on directions the bodies cannot move in would be dependent.
  unsigned rows = 0x3f;
  // Velocity of a world frame a (body_a = −1) in the world: linear at its origin, angular.
  Vec3 anchor_linear = Vec3::Zero(), anchor_angular = Vec3::Zero();
};

// Stiffness of the joint between two links of length l of a rod of circular cross-section
// (radius r, A = πr², I = πr⁴/4, J = 2I, G = E/(2(1 + ν)), shear coefficient κ of a circle
// 6(1 + ν)/(7 + 6ν) after Cowper): [κGA, κGA, EA, EI, EI, GJ]/l. Throws ncp::Error on a bad value.
Vec6 CosseratStiffness(double young, double poisson, double radius, double link_length);

// The rows of a coupling at the current poses (pose_a ignored for a world frame).
struct CouplingRows {
  Mat6 block_a, block_b;  // row × body twist ([v; ω] in the body frame) of each side
  Vec6 error;             // e: offset of frame b from frame a (position; rotation vector) − rest
  Vec6 anchor;            // the world frame's velocity along each row (0 for a body)
};
// Relative velocity along the rows: block_b V_b + block_a V_a − anchor. The rotation rows use
// the rotation vector of R_aᵀ R_b, whose rate is R_aᵀ(ω_b − ω_a) to first order in the angle
// (joint rotations of a rod stay small).
CouplingRows EvaluateCoupling(const Coupling& c, const Pose& pose_a, const Pose& pose_b);

}  // namespace ncp::physics
