// The one-shot solve of one constraint's surrogate contact problem (002:23, Alg. 2). With the
// diagonal surrogate Delassus operator W̃_i = w I (002 Prop. 3) the constraint velocity is
// u = u_free + w λ, and the solution is closed-form:
//   strict   (002:26, Prop. 4): λ_n = max(0, −u_free,n / w), then λ_t = −u_free,t / w clamped to
//            the disk ‖λ_t‖ ≤ μ λ_n — exactly the Signorini–Coulomb condition for this u;
//   proximal (002:26, Prop. 5): λ = Π_K(−u_free / w), the Euclidean projection onto the friction
//            cone, whose fixed point is the CCP model of 002:36.
// Unilateral rows: λ = max(0, −u_free / w); bilateral rows: λ = −u_free / w (u = 0).
#pragma once

#include "problems/math/cone.h"
#include "problems/model/contact_problem.h"

namespace ncp::cond {

inline void SolveSurrogate(ConstraintType type, double mu, bool strict, double w,
                           const double* u_free, double* lam) {
  if (type == ConstraintType::kContact) {
    const double trial[3] = {-u_free[0] / w, -u_free[1] / w, -u_free[2] / w};
    if (strict)
      ProjectStrict(mu, trial, lam);
    else
      ProjectProximal(mu, trial, lam);
    return;
  }
  const double trial = -u_free[0] / w;
  lam[0] = type == ConstraintType::kUnilateral ? (trial > 0 ? trial : 0.0) : trial;
}

}  // namespace ncp::cond
