// `subadmm` (004 §VI): subsystem-based ADMM with body splitting. One slack per (constraint, body)
// with the 3×6 block J_{i,b} (004:30–31); per-body H_b = M_b + β Σ_i J_{i,b}ᵀ J_{i,b} (004:41),
// kept in the 10-number form of App. A for point contacts; K_j = J_Bᵀ H_B J_B (004:40) is
// factorized with the subsystem's tree: CRBA + branch-induced LTDL (default) or the
// articulated-body recursion of Remark 1. Subsystems without tree data use a dense Cholesky.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "solvers/common/dense_factors.h"
#include "solvers/common/spatial_inertia.h"
#include "solvers/common/subadmm_base.h"
#include "solvers/common/tree_factor.h"

namespace ncp {

class SubAdmmSolver : public SubAdmmBase {
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
  // Rows beyond the constraint's are zero; row-major so each row is 6 contiguous numbers.
  using Block = Eigen::Matrix<double, 3, 6, Eigen::RowMajor>;
  using Factorization = SubAdmmSettings::Factorization;
  using Apply = SubAdmmSettings::Apply;
  enum Mode { kTree, kDense };

  SubAdmmSettings set_;  // read in BuildSlacks

  // Bodies in subsystem order (sub_body_begin_[j] …), with their slacks (CSR).
  // Slacks are stored body by body: body b owns slacks [body_slack_begin_[b], …[b + 1]).
  std::vector<int> sub_body_begin_, body_slack_begin_, slack_body_, slack_row_, slack_nrows_;
  std::vector<Block> J_;  // per body slack
  // Joint slacks (index nbody_slacks_ + t): w = a v̂_k on one subsystem dof.
  int nbody_slacks_ = 0;
  std::vector<int> sub_jslack_begin_, jdof_;
  std::vector<double> jcoef_;
  std::vector<Vec> jdiag_, jdiag_work_;      // per subsystem: Σ a² per dof; β times that
  std::vector<SpatialInertia10> M10_, P10_;  // per body: M_b; Σ point masses of contact blocks
  std::vector<Mat6> Gd_, H_;                 // per body: other blocks' Σ JᵀJ; H_b workspace
  std::vector<char> has_dense_;
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> Jb_;  // dense mode: J_{b,j}
  std::vector<double> V_;                                     // per body: twist
  std::vector<Eigen::Matrix<double, 6, 2>> F_;                // per body: [Σ Jᵀλ, Σ Jᵀz]
  std::vector<Mode> mode_;
  std::vector<TreeFactor> tree_;
  // C_j: β-free constraint part of K_j (tree CRBA mode: CRBA of the G_b; dense mode: full).
  std::vector<Eigen::MatrixXd> C_;
  DenseFactors dense_;  // dense mode: K_j = A_j + β C_j and its factor
  // BuildSlacks in parts. What one part passes to the next besides the members it fills: the
  // body order and the joint-space slacks.
  struct SlackPlan {
    std::vector<int> order, pos;  // bodies in subsystem order; body → its position there
    std::vector<char> tree, any;  // per subsystem: every body has tree data; has a body
    std::vector<std::array<int, 2>> joint_sub;  // per constraint: subsystems of its joint slacks
    std::vector<int> jcon, jsub, jdof;          // per joint slack: constraint, subsystem, dof
    std::vector<double> jcoef;                  // and its coefficient
  };
  std::string NodalConstraint() const;  // why not, for rows on a bodiless subsystem; else empty
  void GroupBodies(SlackPlan& plan);
  void FindJointSlacks(SlackPlan& plan);
  void BuildBodySlacks(const SlackPlan& plan);    // one slack per (constraint, body), by body
  void AppendJointSlacks(const SlackPlan& plan);  // joint slacks after them, by subsystem
  // M_b, Σ point masses, Σ JᵀJ
  void AccumulateBodyTerms(const SlackPlan& plan, Factorization method);
  std::string PrepareFactorizations(const SlackPlan& plan, Factorization method);
  std::string PrepareSubsystem(int j, const SlackPlan& plan, Factorization method);
  void ChooseApplyModes(const SlackPlan& plan, Apply apply);  // bodies or rows per subsystem
  void SlackVelocitiesByBody(int j, const double* v);
  void AccumulateByBody(int j, double* g, double* h);
  // Row application: body slack sl's rows J_s J_{b,j} on the nonzero columns of J_{b,j} (a tree
  // body: its ancestors' joint dofs), in pairs of consecutive columns so that each step is one
  // SIMD pair: pairs [spair_begin_[sl], …[sl + 1]), each at column pair_col_ with 6 values in
  // pair_val_ (rows 0, 1, 2, two columns each).
  std::vector<char> rows_mode_;
  std::vector<int> spair_begin_, pair_col_;
  std::vector<double> pair_val_;
  int point_blocks_ = 0, dense_blocks_ = 0, tree_subsystems_ = 0;
};

}  // namespace ncp
