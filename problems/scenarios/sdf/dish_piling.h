// dish_piling (004 §VII-B1): a bowl, a bowl, a plate and a pot (0.1, 0.1, 0.1 and 5 kg; inertia
// from the dish solids) stacked on a ground plane, then `count` single-step cases of random
// external wrenches on every dish, dt = 1/240 s.
//
// The stack: the dishes are coaxial solids of revolution, so the settled stack is the coaxial one
// in which each dish rests on the one below (a symmetric equilibrium: the contact forces on each
// ring or disc balance the weight with no friction). It is computed directly: each dish, from the
// bottom up, is lowered along the axis until its deepest penetration into the ground and the
// dishes below is `penetration` (bisection on Frank–Wolfe distances). This is what a simulation
// converges to, without its solver-dependent residual drift, and it keeps the scenario layer free
// of solvers. Each dish is turned about its axis by its own angle so that the mesh sectors of
// neighbours do not line up.
//
// Contacts: every dish's triangles against the SDF of the ground and of every dish below it
// (Frank–Wolfe, candidates below `margin`). One direction per pair: the lower field is exact and
// gives the normal; the reverse direction would add a second copy of each patch from the other
// mesh (redundant rows, no new information). Candidates are clustered by k-means per pair, so no
// cluster mixes two bodies, to at most `max_contacts` over the whole scene (004 §VII-A caps the
// contacts of a scene at 120), shared max–min fairly between the touching pairs. The per-pair
// counts are stored in the problem's params (`contacts_<upper>_<lower>`).
//
// Structure: each dish is a free rigid body (its body-frame twist about its own origin), its own
// subsystem, with the per-body blocks J_{i,b} of every contact.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/scenarios/params.h"

namespace ncp {

const std::vector<ParamSpec>& DishPilingParams();
std::vector<ContactProblem> GenerateDishPiling(const std::map<std::string, std::string>& params,
                                               int count, std::uint64_t seed);

}  // namespace ncp
