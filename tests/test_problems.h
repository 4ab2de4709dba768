// Small manufactured problems shared by the tests.
#pragma once

#include "problems/scenarios/random/manufactured.h"

namespace ncp::testing {

// Only one constraint type (the others set to zero), with a known exact solution.
inline ContactProblem OnlyType(ConstraintType t, std::uint64_t seed = 11) {
  ManufacturedOptions o;
  o.seed = seed;
  o.num_bodies = 20;
  o.num_contacts = t == ConstraintType::kContact ? 12 : 0;
  o.num_unilateral = t == ConstraintType::kUnilateral ? 12 : 0;
  o.num_bilateral = t == ConstraintType::kBilateral ? 12 : 0;
  o.num_soft = t == ConstraintType::kSoft ? 12 : 0;
  return MakeManufacturedProblem(o, "only");
}

// A one-contact fclib-style local problem (W = I, q = −1): no primal form.
inline ContactProblem OneContactLocalProblem() {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  p.W = SpMat(3, 3);
  p.W.setIdentity();
  p.q = Vec::Constant(3, -1.0);
  return p;
}

// The acceptance family: ≥ 50 contacts and every constraint type.
inline ManufacturedOptions AcceptanceOptions(std::uint64_t seed) {
  ManufacturedOptions o;
  o.seed = seed;
  o.num_bodies = 60;
  o.num_contacts = 50;
  o.num_unilateral = 8;
  o.num_bilateral = 6;
  o.num_soft = 6;
  return o;
}

// A small problem of the acceptance family: `others` unilateral and as many bilateral rows.
inline ManufacturedOptions SmallOptions(std::uint64_t seed, int num_bodies, int num_contacts,
                                        int others, int num_soft) {
  ManufacturedOptions o = AcceptanceOptions(seed);
  o.num_bodies = num_bodies;
  o.num_contacts = num_contacts;
  o.num_unilateral = o.num_bilateral = others;
  o.num_soft = num_soft;
  return o;
}

// Structured family for the subsystem solvers: 24 random kinematic trees of 5 bodies (floating
// root + 4 one-dof joints, 10 dofs each), contacts within and between trees, every row type.
inline ManufacturedOptions TreeOptions(std::uint64_t seed) {
  ManufacturedOptions o;
  o.seed = seed;
  o.articulated = true;
  o.num_bodies = 120;
  o.bodies_per_subsystem = 5;
  o.num_contacts = 30;
  o.num_unilateral = 6;
  o.num_bilateral = 4;
  o.num_soft = 6;
  return o;
}

// Contacts only (no unilateral, bilateral or soft rows): the problems that every contact solver,
// including the fclib-style ones (3-row contacts only), accepts, and whose local form exists.
inline ManufacturedOptions ContactsOnlyOptions(std::uint64_t seed, int num_bodies,
                                               int num_contacts) {
  ManufacturedOptions o;
  o.seed = seed;
  o.num_bodies = num_bodies;
  o.num_contacts = num_contacts;
  o.num_unilateral = 0;
  o.num_bilateral = 0;
  o.num_soft = 0;
  return o;
}

}  // namespace ncp::testing
