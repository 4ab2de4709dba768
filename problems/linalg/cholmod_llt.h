// Thin wrapper over CHOLMOD's supernodal LLᵀ. The symbolic analysis is done once per pattern
// and reused by every numeric refactorization (e.g. when ADMM changes β); solves go through
// cholmod_solve2 with persistent workspaces, so a solve does not allocate after the first one.
#pragma once

#include <cholmod.h>

#include <Eigen/Core>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

class CholmodLLT {
 public:
  // kSimplicial: faster on small factors whose supernodes are too narrow for BLAS to pay (a few
  // hundred dofs of an FEM piece); kAuto, the default: CHOLMOD's own choice at the analysis
  // (supernodal when the factorization's flops per nonzero of L reach 40), so that a small problem
  // neither pays BLAS's per-call overhead nor wakes BLAS's thread pool.
  enum class Kind { kSupernodal, kSimplicial, kAuto };
  explicit CholmodLLT(Kind kind = Kind::kAuto);
  ~CholmodLLT();
  CholmodLLT(const CholmodLLT&) = delete;
  CholmodLLT& operator=(const CholmodLLT&) = delete;

  // Symbolic analysis (fill-reducing ordering, supernodes) of A's pattern; only the lower
  // triangle is read. Invalidates a previous factorization.
  void Analyze(const SpMat& A);
  // Numeric factorization with the analyzed pattern. Returns false when A is not SPD.
  bool Factorize(const SpMat& A);
  bool analyzed() const { return L_ != nullptr; }
  bool supernodal() const { return L_ != nullptr && L_->is_super; }
  int rows() const { return n_; }
  // From the symbolic analysis: nonzeros of L and the floating-point operations of one numeric
  // factorization (CHOLMOD's lnz and fl); a solve costs about 4 nnz(L) operations.
  double factor_nonzeros() const { return factor_nonzeros_; }
  double factor_flops() const { return factor_flops_; }

  // x = A⁻¹ b. x may alias nothing else; sizes must match rows(). Never allocates after the
  // first call.
  void Solve(const Vec& b, Vec& x);
  // x = A⁻¹ b on raw arrays of rows() entries (x may alias b). Never allocates on a simplicial
  // factor (its own permuted triangular solves: cholmod_solve2 allocates there at every call);
  // on a supernodal one, not after the first call, like Solve(const Vec&, Vec&).
  void Solve(const double* b, double* x);
  // X = A⁻¹ B for a dense block of right-hand sides.
  void Solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X);

 private:
  cholmod_sparse View(const SpMat& A) const;

  cholmod_common common_;
  cholmod_factor* L_ = nullptr;
  cholmod_dense* X_ = nullptr;  // persistent solve workspaces (cholmod_solve2)
  cholmod_dense* Y_ = nullptr;
  cholmod_dense* E_ = nullptr;
  int n_ = 0;
  double factor_nonzeros_ = 0.0, factor_flops_ = 0.0;
  std::vector<double> work_;  // n_ entries: the permuted right-hand side of Solve(raw)
};

}  // namespace ncp
