// Owning handles and conversions between Eigen and Siconos Numerics objects. Siconos frees what
// it owns with its own functions, so every array handed to it is malloc'ed here.
#pragma once

#include <memory>

#include "problems/model/contact_problem.h"

struct NumericsMatrix;
struct SolverOptions;

namespace ncp::siconos {

// A Siconos sparse (triplet) matrix holding a copy of `a`, factorized by Siconos' CSparse LU; the
// caller owns it (NM_free).
NumericsMatrix* ToNumerics(const SpMat& a);
// malloc'ed copy of `x` (Siconos frees problem vectors with free()).
double* MallocCopy(const Vec& x);

struct OptionsDeleter {
  void operator()(SolverOptions* o) const;
};
using OptionsPtr = std::unique_ptr<SolverOptions, OptionsDeleter>;
// Options with Siconos' defaults for `solver_id`; throws ncp::Error on an unknown id.
OptionsPtr MakeOptions(int solver_id);

// Siconos prints nothing unless asked.
void Silence();

}  // namespace ncp::siconos
