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
// "b: wrong size: expected 12, got 11". A local W need not be symmetric: exported Delassus
// matrices are not exactly, and solvers say what they do with one (ncpbench list solvers);
// only what cannot be a problem is refused (sizes, non-finite values, μ < 0, a non-square W).
std::string Validate(const ContactProblem& p, const ValidateOptions& opt = {});

// max |M − Mᵀ| / max |M| (0 for a symmetric or empty matrix): how far an exported matrix is
// from symmetric. fclib files written in single precision (LMGC90, Siconos) carry 1e-7 to 2e-3.
double Asymmetry(const SpMat& M);

// Only the finiteness of A, b, J, e (cheap enough for every simulation step).
std::string ValidateFinite(const ContactProblem& p);

}  // namespace ncp
