// A Cosserat rod as a chain of rigid links (free bodies, capsule geoms) coupled at their shared
// ends by soft stretch, shear, bending and twist rows (rod_coupling.h; 002 §V-C5, 000 §IV-A2).
#pragma once

#include "problems/scenarios/rigid/scene.h"

namespace ncp {

struct RodSpec {
  int links = 10;
  double length = 1.0;    // [m]
  double radius = 0.005;  // cross-section and capsule radius [m]
  double density = 1000;  // [kg/m³]
  double young = 1e6;     // E [Pa]
  double poisson = 0.3;   // ν
  double damping = 0.0;   // Rayleigh time τ [s]: D = τ K per row
  double mu = 0.5;        // friction of the link capsules
  // Contacts act on the links' nodes (centres) rather than at the contact points: no lever arm,
  // so a contact's rows touch only its link's translation (a nodal contact in 002's sense).
  bool nodal_contacts = false;
  // The links' capsules all share this non-zero collision group: the rod has no self-contacts
  // (neighbouring capsules overlap at their joint). Negative values keep clear of the instance
  // groups of MultibodySystem::AddInstance.
  int group = -1;
};

struct Rod {
  int first_instance = 0, first_body = 0, links = 0;
  double link_length = 0.0;
  physics::Vec6 stiffness = physics::Vec6::Zero();  // K of every joint (CosseratStiffness)
  physics::Vec6 damping = physics::Vec6::Zero();    // D = τ K
};

// Adds the rod at rest, straight along the z axis of `start` from its origin: link i spans
// [i l, (i + 1) l] with l = length / links, its frame at the link's centre with the axes of
// `start`. Throws ncp::Error on a bad spec.
Rod AddRod(physics::MultibodySystem& s, const RodSpec& spec, const physics::Pose& start);

// A coupling with the rod's joint gains between `end` (0: the start of link 0, 1: the end of the
// last link) and a world frame (a clamp, or a gripper when moved with SetCouplingFrame); `hard`
// makes it bilateral. The world frame starts where the rod end is.
int AddRodEndCoupling(physics::MultibodySystem& s, const Rod& rod, int end, bool hard);

}  // namespace ncp
