// The boxed-LCP form of a contact problem, as the engines' solvers take it (ODE's dSolveLCP,
// Bullet's btMLCPSolverInterface, DART's BoxedLcpSolver):
//   A x = b + w,  lo_i ≤ x_i ≤ hi_i,  x_i = lo_i ⇒ w_i ≥ 0,  x_i = hi_i ⇒ w_i ≤ 0,  else w_i = 0,
// where a friction row i has findex[i] = k, the row of its contact's normal, and the bounds
// ±hi_i · x_k (ODE's findex, Bullet's limitDependency).
//
// From u = W λ + q with λ = P x: A = Pᵀ W P, b = −Pᵀ q, w = Pᵀ u. A contact's normal row is
// [0, ∞) and Coulomb's disk |λ_t| ≤ μ λ_n is replaced by `directions` tangent rows along
// t_j = (cos πj/d, sin πj/d), each |x_j| ≤ c_d μ λ_n: their zonotope contains the disk and touches
// it (d = 2: the engines' box, c = 1). Unilateral rows are [0, ∞), bilateral rows free. The
// normal row sees u_n alone: the relaxation drops the De Saxcé term μ‖u_t‖ that the exact
// problem adds, as every boxed-LCP engine does.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

using RowMajorMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct BoxedLcp {
  RowMajorMat A;            // n × n, dense (the engines' solvers take dense matrices)
  Vec b, lo, hi;            // n; hi of a friction row is its scale c_d μ
  std::vector<int> findex;  // n; −1 for a row without a friction index
  SpMat P;                  // m × n: the multipliers of the contact problem, λ = P x
  int rows() const { return static_cast<int>(b.size()); }
};

// c_d: the bound scale of d tangent rows (1 for d = 2).
double FrictionBoundScale(int directions);

// Rows of the boxed form for these constraints.
int BoxedRows(const std::vector<Constraint>& cs, int directions);

// The boxed LCP of u = W λ + q (W m × m, read as is: pass its symmetric part where the solver
// needs one). Throws ncp::Error for directions < 2, for soft or joint-friction constraints (fold
// soft rows first; joint friction has no boxed form here) and for mismatched sizes.
BoxedLcp MakeBoxedLcp(const SpMat& W, const Vec& q, const std::vector<Constraint>& cs,
                      int directions);

}  // namespace ncp
