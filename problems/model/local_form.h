// The local (Delassus) form u = W λ + q of a global problem, W = J A⁻¹ Jᵀ, q = J A⁻¹ b + e,
// as fclib local files hold it: the form in which the field's collections (LMGC90, Siconos)
// are exchanged, and the one every dual solver of the field runs on.
#pragma once

#include "problems/model/contact_problem.h"

namespace ncp {

// Soft rows are folded into A and b first (fold_soft.h); a unilateral row becomes a μ = 0
// contact whose tangent rows of W and q are zero; bilateral rows have no fclib local form and
// make it throw ncp::Error, as does an A that is not SPD. W is made exactly symmetric (the
// rounding of the two triangles differs). The reference (v, λ) carries over as λ on the new
// rows. Dense: meant for problems of up to a few thousand rows.
ContactProblem MakeLocalForm(const ContactProblem& global);

}  // namespace ncp
