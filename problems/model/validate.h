// Validation of a ContactProblem. Each failure names the field, the index and the values.
#pragma once

#include <string>

#include "problems/model/contact_problem.h"

namespace ncp {

struct ValidateOptions {
  bool check_spd = true;        // Cholesky of A (costly on big problems)
  double symmetry_tol = 1e-10;  // relative to max |A_ij|
  double structure_tol = 1e-12;
};

// Returns the empty string when the problem is valid, else a one-line message such as
// "b: wrong size: expected 12, got 11".
std::string Validate(const ContactProblem& p, const ValidateOptions& opt = {});

// Only the finiteness of A, b, J, e (cheap enough for every simulation step).
std::string ValidateFinite(const ContactProblem& p);

}  // namespace ncp
