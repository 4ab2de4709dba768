// Folding soft rows into the dynamics: a soft row λ = −k e − d J v (004:4) substituted into
// A v = b + Jᵀλ gives (A + d JᵀJ) v = b − k Jᵀ e, so the problem keeps only its hard rows.
// Used where a format or a library has no soft constraint (fclib, Siconos).
#pragma once

#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

struct FoldedProblem {
  ContactProblem problem;      // global form, soft rows removed, other rows in their order
  std::vector<int> kept_rows;  // kept_rows[r] = row of the original problem for folded row r
};

// Global problems only (throws ncp::Error otherwise). Without soft rows A and b are copied
// unchanged (bitwise), so the fold of a hard-only problem is the identity. Metadata and the
// reference are copied (λ restricted to the kept rows); the structure layer is dropped, since its
// blocks index the original constraints.
FoldedProblem FoldSoftRows(const ContactProblem& p);

// The full λ of the original problem: hard rows from `folded_lambda`, soft rows from
// λ = −k e − d J v at the velocity v of the folded problem.
Vec UnfoldMultipliers(const ContactProblem& original, const FoldedProblem& f,
                      const Vec& folded_lambda, const Vec& v);

}  // namespace ncp
