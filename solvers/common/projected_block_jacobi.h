// The projected block-Jacobi preconditioner of 003 eq. (3) in this suite's problem form:
//   P = A + Σ_{maximal soft i} d_i Σ_b (J_{i,b} J_b)ᵀ (J_{i,b} J_b) + Σ_{joint soft i} d_i J_iᵀ
//   J_i,
// i.e. A' = A + J_sᵀ D J_s without the cross terms between different bodies of one soft row:
// the 6×6 diagonal blocks of the maximal damping, projected to reduced coordinates, plus the
// reduced terms exactly (a soft row on a single dof, a joint spring: 003 Alg. 1 line 6). Where A is
// the bodies' inertia Σ_b J_bᵀ M_b J_b (BodyTrees checks it), P is each tree's
// K = Σ_b J_bᵀ H_b J_b with H_b = M_b + Σ_{soft i on b} d_i J_{i,b}ᵀ J_{i,b}, solved in
// O(bodies) by the articulated-body recursion (003 Alg. 1). No heap allocation after Init().
#pragma once

#include <Eigen/Core>
#include <vector>

#include "solvers/common/body_trees.h"

namespace ncp {

class ProjectedBlockJacobi {
 public:
  // soft: indices of the problem's soft constraints, each weighted by its damping d_i; trees:
  // Init()ed on p, outliving this. The scale is 1.
  void Init(const ContactProblem& p, const std::vector<int>& soft, BodyTrees& trees);
  // Any rows: constraint rows[k] weighted by weights[k] (e.g. an ADMM's per-constraint penalty
  // weights), so that P = A + s Σ_k w_k (…) with the scale s of SetScale (initially 1).
  void Init(const ContactProblem& p, const std::vector<int>& constraints,
            const std::vector<double>& weights, BodyTrees& trees);
  // P = A + s Σ w (…) for the next Factorize (an ADMM's β). No allocation.
  void SetScale(double s);
  // The articulated-body factorization of every subsystem's K; false when one is not SPD.
  bool Factorize();
  // z = P⁻¹ r (z must not alias r).
  void Apply(const Vec& r, Vec& z);
  // What one Apply() moves and computes: every subsystem tree's solve (TreeFactor::SolveWork).
  WorkCount ApplyWork() const;
  // P assembled through the trees (composite rigid bodies on the same H_b), for tests.
  Eigen::MatrixXd Assembled();

 private:
  BodyTrees* trees_ = nullptr;
  std::vector<Mat6> S_, H_;  // per grouped body: Σ w J_{i,b}ᵀ J_{i,b}, and M_b + s S_b
  std::vector<double> diag_unit_, diag_;  // per dof: the joint-space rows' w J², and s times it
};

}  // namespace ncp
