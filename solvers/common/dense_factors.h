// The dense route of the subsystem ADMM solvers: K_j = A_j + β C_j factorized with Eigen's LLT
// for the subsystems that have no tree or sparse factorization. Each factor is then copied
// next to the previous one in one buffer, so that an iteration's solves read one stream where
// each LLT's own storage lies between other heap blocks (on 10⁵ random contacts of 6-dof
// bodies the solves were then the largest part of an iteration). The solves are those of
// LLT::solveInPlace — the same two triangular kernels on the same numbers, at an alignment of
// 16 bytes or more like the heap's — so the iterates are the same to the bit. Factors larger
// than kPackedMax × kPackedMax stay where the LLT keeps them: their own solve streams through
// them anyway, and a copy would add a fourth n² array to C_j, K_j and the LLT's.
#pragma once

#include <cstddef>
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

namespace ncp {

class DenseFactors {
 public:
  static constexpr int kPackedMax = 64;
  // nsub subsystems, none of them dense yet.
  void Reset(int nsub);
  // Subsystem j (n × n, n = A.rows()) takes the dense route; its workspaces are sized here so
  // that Factorize does not allocate. Distinct j may be added from different threads.
  void Add(int j, const Eigen::MatrixXd& A);
  // After every Add: the factors' buffer. No allocation after this.
  void Pack();
  // K_j = A + β C and its factor; false when K_j is not positive definite.
  bool Factorize(int j, const Eigen::MatrixXd& A, const Eigen::MatrixXd& C, double beta);
  // x ← K_j⁻¹ x (n_j numbers).
  void Solve(int j, double* x) const;

 private:
  // Where packed factor j starts in factors_.
  std::size_t Offset(int j) const { return shift_ + at_[j]; }

  bool Packed(int j) const { return n_[j] <= kPackedMax; }

  std::vector<int> n_;  // per subsystem: its size on the dense route, 0 off it
  std::vector<Eigen::MatrixXd> K_;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> llt_;
  // Packed factor j: n_j² numbers from factors_.data() + shift_ + at_[j], on a 64-byte boundary.
  std::vector<double> factors_;
  std::vector<std::size_t> at_;
  std::size_t shift_ = 0;
};

}  // namespace ncp
