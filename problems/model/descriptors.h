// Difficulty descriptors of one contact problem, the quantities along which Acary, Brémond &
// Huber (2018) explain solver success on the fclib collection: size, contact density, rank
// deficiency and conditioning of the Delassus operator W, mass ratio, friction and asymmetry.
#pragma once

#include <limits>

#include "problems/model/contact_problem.h"

namespace ncp {

// W is formed densely (and, for a global problem, through a factorization of A) only up to this
// many rows: the eigenvalues cost O(m³), about a second at 1500 rows.
inline constexpr int kDescribeMaxRows = 1500;

// An eigenvalue of W counts towards the numerical rank when it exceeds this share of the largest
// one. W of a global problem carries the rounding of A⁻¹, far above machine precision for the
// mass ratios of the collection, so the tolerance is not m·ε.
inline constexpr double kRankRelTol = 1e-10;

struct ProblemDescriptors {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  int contacts = 0;
  int rows = 0;                   // m, rows of J (global) or of W (local)
  int rank = -1;                  // numerical rank of W; −1: not computed (m too large)
  double contact_density = kNaN;  // 3·n_c / n (global only)
  double rank_ratio = kNaN;       // rank / m; NaN: not computed
  double condition = kNaN;        // largest / smallest kept eigenvalue of W; NaN: not computed
  double mass_ratio = kNaN;       // max/min body mass, else max/min diag(A) (global only)
  double mu_min = kNaN, mu_max = kNaN;  // over the contacts; NaN without contacts
  double asymmetry = kNaN;              // max|W − Wᵀ| / max|W| (local); 0 for global problems
};

// Computes every descriptor. The rank and condition use the eigenvalues of the symmetric part
// of W = J A⁻¹ Jᵀ (global; Eigen's sparse LDLᵀ of A) or of the stored W (local), and are left
// NaN when m > max_rows or A cannot be factorized.
ProblemDescriptors Describe(const ContactProblem& p, int max_rows = kDescribeMaxRows);

}  // namespace ncp
