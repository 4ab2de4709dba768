// The problem's tree subsystems as TreeFactor trees (solvers/common/tree_factor.h): bodies
// grouped by subsystem, each body's spatial inertia M_b, and the body-space passes
// V_b = J_b x (twists, root to leaves) and y = Σ_b J_bᵀ F_b (forces, leaves to root) in
// O(bodies). Init() accepts the problem only where these passes reproduce A:
// A = Σ_b J_bᵀ M_b J_b over tree subsystems that cover every dof (checked by two O(n) products,
// 1e-9 relative). No heap allocation after Init().
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/common/tree_factor.h"

namespace ncp {

class BodyTrees {
 public:
  // False with the reason: no structure layer, a subsystem that is not a tree, dofs outside
  // every tree subsystem, or A differing from the bodies' inertia.
  bool Init(const ContactProblem& p, std::string* why);
  // V (6 per grouped body) = J_b x.
  void Twists(const Vec& x, double* V);
  // y = Σ_b J_bᵀ F_b; F (6 per grouped body) is overwritten.
  void Forces(double* F, Vec& y);
  // y = Σ_b J_bᵀ M_b J_b x (uses the workspace V_).
  void InertiaProduct(const Vec& x, Vec& y);

  int subsystems() const { return static_cast<int>(tree_.size()); }
  int bodies() const { return static_cast<int>(M_.size()); }
  TreeFactor& tree(int j) { return tree_[j]; }
  int dof_begin(int j) const { return begin_[j]; }
  int dof_count(int j) const { return count_[j]; }
  int body_begin(int j) const {
    return body_begin_[j];
  }  // grouped bodies of j: [begin(j), begin(j+1))
  int grouped(int problem_body) const { return pos_[problem_body]; }
  const Mat6& inertia(int k) const { return M_[k]; }  // by grouped index

 private:
  std::vector<TreeFactor> tree_;
  std::vector<int> begin_, count_, body_begin_, pos_;
  std::vector<Mat6> M_;
  std::vector<double> V_;
};

}  // namespace ncp
