// `subadmm-nobody`: subsystem-based ADMM without body splitting (000 eqs. 15–23; 004 Table III
// "No Body"). One slack per (constraint, subsystem) with the block J_ij of J, kept as sparse
// rows; each subsystem factorizes K_j = A_j + β_j Σ_i J_ijᵀ J_ij, densely (Eigen LLT) or, for
// a large sparse K_j such as an FEM piece, with CHOLMOD: the symbolic analysis of K_j's pattern
// is done once in setup and every β change is a numeric refactorization on it.
#pragma once

#include <memory>
#include <vector>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/common/dense_factors.h"
#include "solvers/common/subadmm_base.h"

namespace ncp {

class SubAdmmNobodySolver : public SubAdmmBase {
 public:
  std::vector<std::pair<std::string, double>> Info() const override;

 protected:
  std::string BuildSlacks(const Settings& s) override;
  void InitialBeta(const Settings& s, std::vector<double>& beta) const override;
  bool Factorize(int j, double beta) override;
  void Solve(int j, const double* rhs, double* v) override;
  void SlackVelocities(int j, const double* v) override;
  void Accumulate(int j, double* g, double* h) override;
  WorkCount SubsystemWork(int j) const override;

 private:
  using Factorization = SubAdmmNobodySettings::Factorization;
  enum Mode { kDense, kSparse };
  // Whether K_j (n × n with nnz entries in its pattern) is factorized sparsely under the
  // `factorization` setting.
  static bool UseSparse(Factorization setting, int n, long nnz);
  using RowMajorJ = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  // slack_con_, slack_sub_ and sub_slack_begin_ from J's pattern.
  void NumberSlacks(const RowMajorJ& Jr, const std::vector<int>& sub_of_dof);
  // BuildSlacks' part for subsystem j: K_j's pattern and factor workspace, or its dense C_j;
  // true when it goes sparse. `trip`: the calling thread's triplet buffer.
  bool PrepareSubsystem(int j, std::vector<Eigen::Triplet<double>>& trip);
  // BuildSlacks for a subsystem that is dense whatever its pattern.
  void DenseSubsystem(int j);
  // Each term ω_i J_s(r, a) J_s(r, b) of subsystem j's C_j in the lower triangle, as
  // add(row, col, value), in one fixed order (the sparse and dense builds sum alike).
  template <typename Add>
  void ForEachTermOfC(int j, Add add) const {
    for (int sl = sub_slack_begin_[j]; sl < sub_slack_begin_[j + 1]; ++sl) {
      const double w = slack_lam_[sl].w;
      for (int r = 0; r < 3; ++r)
        for (int a = row_begin_[3 * sl + r]; a < row_begin_[3 * sl + r + 1]; ++a)
          for (int b = row_begin_[3 * sl + r]; b < row_begin_[3 * sl + r + 1]; ++b)
            if (nz_col_[a] >= nz_col_[b]) add(nz_col_[a], nz_col_[b], w * nz_val_[a] * nz_val_[b]);
    }
  }

  SubAdmmNobodySettings set_;  // read in BuildSlacks
  // Slack s, row r: its nonzeros (subsystem-local column, value) are
  // [row_begin_[3 s + r], row_begin_[3 s + r + 1]) of nz_col_ / nz_val_ (3 row slots per slack,
  // empty beyond the constraint's rows).
  std::vector<int> row_begin_, nz_col_;
  std::vector<double> nz_val_;
  // Subsystem j's slacks are [sub_slack_begin_[j], sub_slack_begin_[j + 1]) (BuildSlacks).
  std::vector<int> sub_slack_begin_;
  // Slack s's λ rows [row, row + rows) and its constraint's weight ω, read by Accumulate.
  struct SlackRows {
    int row, rows;
    double w;
  };
  std::vector<SlackRows> slack_lam_;
  std::vector<Mode> mode_;
  std::vector<double> trace_c_;  // Tr(Σ ω J_sᵀ J_s) per subsystem (000:23)
  // Dense mode: C_j = Σ ω J_sᵀ J_s; K_j = A_j + β C_j and its factor.
  std::vector<Eigen::MatrixXd> C_;
  DenseFactors dense_;
  // Sparse mode: K_j on the union pattern of A_j and C_j (lower triangle), its values rebuilt
  // as a + β c entry by entry, and the CHOLMOD factor analyzed once.
  std::vector<SpMat> Ks_;
  std::vector<std::vector<double>> ka_, kc_;
  std::vector<std::unique_ptr<CholmodLLT>> chol_;
  int sparse_subsystems_ = 0;
};

}  // namespace ncp
