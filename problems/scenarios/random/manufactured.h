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
  int num_bodies = 60;          // 6 dofs each
  int bodies_per_subsystem = 1; // bodies inside one subsystem are coupled through A
  // Subsystems as random kinematic trees (floating root + 1-dof revolute/prismatic joints, with
  // tree data, A = Σ_b J_bᵀ M_b J_b) instead of 6-dof bodies coupled through A.
  bool articulated = false;
  int num_contacts = 50;
  int num_unilateral = 8;
  int num_bilateral = 6;
  int num_soft = 6;
  // Constraint rows charged to one body (rigid bodies only). Up to 5, J has full row rank and λ*
  // is unique; more (a body has 6 dofs, two contacts on it span 5) makes W = J A⁻¹ Jᵀ
  // rank-deficient, as in stacks and piles: (v*, λ*) is still an exact solution, one of many.
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
std::string ValidateOptions(const ManufacturedOptions& o);

// Deterministic in `o` (same options → bitwise identical problem).
ContactProblem MakeManufacturedProblem(const ManufacturedOptions& o, const std::string& name);

}  // namespace ncp
