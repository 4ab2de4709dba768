// Manufactured problems: a random SPD A and random Jacobians, with b and e built so that a chosen
// (v*, λ*) is an exact solution of 004:8. The statuses (open / stick / slip contacts, active or
// inactive unilateral rows) are chosen, so every branch of every solver is exercised.
#pragma once

#include <cstdint>
#include <string>

#include "problems/model/contact_problem.h"

namespace ncp {

struct ManufacturedOptions {
  std::uint64_t seed = 1;
  // Sizes.
  int num_bodies = 60;           // 6 dofs each
  int bodies_per_subsystem = 1;  // bodies inside one subsystem are coupled through A
  // Subsystems as random kinematic trees (floating root + 1-dof revolute/prismatic joints, with
  // tree data, A = Σ_b J_bᵀ M_b J_b) instead of 6-dof bodies coupled through A.
  bool articulated = false;
  int num_contacts = 50;
  int num_unilateral = 8;
  int num_bilateral = 6;
  int num_soft = 6;
  // Constraint rows charged to one body (rigid bodies only). Up to 5, J has full row rank and W
  // is SPD; more (a body has 6 dofs, two contacts on it span 5) makes W = J A⁻¹ Jᵀ
  // rank-deficient, as in stacks and piles: (v*, λ*) is still an exact solution, one of many.
  // Even with W SPD, Coulomb friction is not monotone: with large μ on an ill-conditioned W
  // another exact solution can exist, which a solver may reach (res004 ≈ 0, lambda_err > 0).
  int rows_per_body = 5;
  // Status mix of contacts (normalized): open, stick, slip.
  double frac_open = 0.2;
  double frac_stick = 0.4;
  double frac_slip = 0.4;
  double ground_fraction = 0.3;  // share of contacts against the static world (one body)
  // Physics ranges.
  double mu_min = 0.2;
  double mu_max = 1.0;
  double mass_ratio = 10.0;  // body masses log-uniform in [1, mass_ratio]
  double condition = 10.0;   // eigenvalue spread of each body's 6×6 mass block
  double coupling = 0.0;     // strength of the SPD coupling between bodies of one subsystem
  double body_size = 0.5;    // contact points within ±body_size of the body's com
};

// Returns "" when the options are valid, else "field = value: rule".
std::string OptionsError(const ManufacturedOptions& o);

// Deterministic in `o` (same options → bitwise identical problem).
ContactProblem MakeManufacturedProblem(const ManufacturedOptions& o, const std::string& name);

// A tree of free rigid bodies (maximal coordinates, 6 dofs each: body twist [v; ω] in the body
// frame, A = blockdiag(m I₃, I_body)) held together by revolute joints with joint friction (003
// §5.2): body 0 hangs from the world, body k > 0 from an earlier body, and each joint is the five
// implicit contacts of physics::EvaluateFrictionJoint (ConstraintType::kJointFriction, 2 rows
// each) at random poses, joint frames and axes (gaps zero by construction).
//
// The exact solution is physical per joint: v* = the tree's motion under random joint rates q̇
// (zero for a sticking joint), plus the minimum-norm correction Δv with J_n Δv = −e_n for random
// drift e_n (the joint gaps' term). So u_n = 0 and the five tangent velocities of a joint are all
// u_t = r q̇ (e_t = −J_t Δv keeps them equal, of the drift's size; e = 0 when drift = 0). λ_n has
// either sign; a sticking joint has |λ_t| < μ|λ_n| (u_t = 0), a sliding one λ_t = −μ|λ_n|
// sign(u_t).
//
// Uniqueness: a sticking joint's λ is not unique (10 rows on the 6 dofs of its relative twist:
// how the friction is shared among its five contacts is free within the bounds); a sliding
// joint's is (its five normals are independent and λ_t follows λ_n), as long as μ is small: with
// λ_n free, friction μ|λ_n| can balance the normals by itself (jamming, as a drawer) and the
// problem then has other solutions. With the default μ ∈ [0.05, 0.3], pgs and sp find v* on
// chains and trees of 4–6 bodies (and λ* when every joint slides); with μ up to 1, pgs found a
// second exact solution on an all-sliding chain of 5 (v 65% away, |λ| 50 times |λ*|) and sp
// stalled on several.
struct JointFrictionTreeOptions {
  int bodies = 6;
  // Probability that body k > 0 hangs from a uniformly drawn earlier body rather than from body
  // k − 1: 0 = a chain, 1 = a random tree.
  double branching = 0.0;
  double mu_min = 0.05, mu_max = 0.3;           // per joint (see above for larger μ)
  double radius_min = 0.05, radius_max = 0.15;  // joint radius r [m]; half-length r·U(0.5, 2)
  double drift = 0.01;       // e_n uniform in ±drift [m/s]: the joint gaps' correction
  double frac_stick = 0.5;   // share of sticking joints; the others slide
  double mass_ratio = 10.0;  // body masses log-uniform in [1, mass_ratio] kg
  double body_size = 0.5;    // joint points within ±body_size of the bodies' origins [m]
};

// Returns "" when the options are valid, else "field = value: rule".
std::string OptionsError(const JointFrictionTreeOptions& o);

// Deterministic in (o, seed). Throws ncp::Error on invalid options.
ContactProblem ManufacturedJointFrictionTree(const JointFrictionTreeOptions& o, std::uint64_t seed,
                                             const std::string& name = "joint-friction");

}  // namespace ncp
