// `subadmm-nobody`: subsystem-based ADMM without body splitting (000 eqs. 15–23; 004 Table III
// "No Body"). One slack per (constraint, subsystem) with the dense block J_ij of J; each
// subsystem factorizes A_j + β_j Σ_i J_ijᵀ J_ij densely (Cholesky).
#pragma once

#include <Eigen/Cholesky>

#include "solvers/subadmm/subadmm_base.h"

namespace ncp {

class SubAdmmNobodySolver : public SubAdmmBase {
 public:
  static std::vector<SettingSpec> Specs();

 protected:
  std::string BuildSlacks(const Settings& s) override;
  void InitialBeta(const Settings& s, std::vector<double>& beta) const override;
  bool Factorize(int j, double beta) override;
  void Solve(int j, const double* rhs, double* v) override;
  void SlackVelocities(int j, const double* v) override;
  void Accumulate(int j, double* g, double* h) override;

 private:
  int beta_rule_ = 0;                         // 0: 000:23 trace ratio, 1: 004 §VI-D density
  std::vector<int> slack_off_;                // start of J_s (rows × n_j, row-major) in jv_
  std::vector<double> jv_;
  std::vector<int> sub_slack_begin_, sub_slacks_;  // CSR: subsystem → its slacks
  std::vector<Eigen::MatrixXd> C_, K_;        // Σ J_sᵀ J_s and A_j + β C_j
  std::vector<Eigen::LLT<Eigen::MatrixXd>> llt_;
};

}  // namespace ncp
