// The dual (Delassus) form u = W λ + q used by the dual solvers (soft rows folded in as
// equality rows with compliance, see dual_problem.cc), built either from a global
// problem (W = J A⁻¹ Jᵀ, q = J A⁻¹ b + e) or taken as is from a local one.
#pragma once

#include <memory>

#include "problems/linalg/cholmod_llt.h"
#include "problems/model/contact_problem.h"

namespace ncp {

struct DualProblem {
  // m × m, both triangles, column-major, stored so that column i holds row i of W (RowDot):
  // W itself when symmetric, Wᵀ for a local problem whose W is not (fclib exports).
  SpMat W;
  Vec q;     // m
  Vec e;     // m, bias rows (needed by soft rows), zero for local problems
  Vec diag;  // W_ii
  const std::vector<Constraint>* constraints = nullptr;
  // Global problems only: factorization of A and v_free = A⁻¹ b, to recover v from λ.
  std::shared_ptr<CholmodLLT> chol;
  Vec v_free;
  const SpMat* J = nullptr;

  int rows() const { return static_cast<int>(q.size()); }
  // v = A⁻¹ (b + Jᵀ λ); empty for local problems. Allocates: for current(), not iterate().
  Vec Velocity(const Vec& lambda) const;
};

// The dual form with A replaced by the positive diagonal diag(a) (CCS's contact step):
// W = J diag(a)⁻¹ Jᵀ and q = e with the soft rows folded, to which the caller adds J x for the
// velocity x the step starts from. No factorization; v is not recoverable from it (chol empty).
DualProblem MakeDiagonalDual(const ContactProblem& p, const Vec& a);

// Throws ncp::Error when A is not SPD. W is formed densely when m² and n·m are small (up to
// 2e6 entries), else from dense blocks of A⁻¹Jᵀ `block` columns at a time to bound memory.
DualProblem MakeDualProblem(const ContactProblem& p, int block = 256);

// A global problem's dynamics factored for recovering v from λ: chol = Cholesky of A (analyzed
// and factorized), v_free = A⁻¹ b. False when A is not SPD (the Cholesky failed).
bool FactorDynamics(const ContactProblem& p, std::unique_ptr<CholmodLLT>& chol, Vec& v_free);
// v = v_free + A⁻¹ Jᵀ λ with the factorization of FactorDynamics. Allocates: for Current().
Vec VelocityOf(const SpMat& J, CholmodLLT& chol, const Vec& v_free, const Vec& lambda);
// The message of a solver whose FactorDynamics failed.
inline constexpr char kNotSpdMessage[] = "A: not symmetric positive definite (Cholesky failed)";

// W = J A⁻¹ Jᵀ with an existing factorization `chol` of A (entries below drop_tol·max|W|
// dropped). Beyond 10⁴ rows (m² > 1e8), a block-diagonal A with blocks of at most 64 dofs is
// inverted block by block instead: O(nnz) where the factor's column blocks would take minutes.
SpMat AssembleDelassus(const SpMat& A, const SpMat& J, CholmodLLT& chol, int block = 256,
                       double drop_tol = 0.0);

}  // namespace ncp
