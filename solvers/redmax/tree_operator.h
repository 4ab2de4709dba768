// A' = A + J_sᵀ D J_s applied through the bodies in O(bodies + soft blocks) (003 §3
// requirement (2)): V_b = J_b x down each tree, F_b = M_b V_b + Σ_{soft i on b} J_{i,b}ᵀ d_i u_i
// with u_i = Σ_b J_{i,b} V_b, then y = Σ_b J_bᵀ F_b up each tree. The sparse product of a chain's
// A and J_s rows costs O(n²) instead (a chain's mass matrix is dense, a spring row on a link
// spans every joint above it). Valid where BodyTrees accepted A and the soft rows' structure
// blocks reproduce their rows of J (Init checks both by two products, 1e-9 relative).
// No heap allocation after Init().
#pragma once

#include <string>
#include <vector>

#include "solvers/common/body_trees.h"

namespace ncp {

class TreeOperator {
 public:
  // False with the reason when the blocks do not reproduce J_s. trees: Init()ed on p,
  // outliving this.
  bool Init(const ContactProblem& p, const std::vector<int>& soft, BodyTrees& trees,
            std::string* why);
  // y = A' x (y must not alias x).
  void Apply(const Vec& x, Vec& y);
  // u = J_s x, one entry per soft row (u must hold as many), through the bodies.
  void SoftRates(const Vec& x, double* u);

 private:
  // u_i = Σ_b J_{i,b} V_b for every soft row, into u_.
  void RowVelocities();

  BodyTrees* trees_ = nullptr;
  std::vector<int> row_begin_;     // soft row s: blocks [row_begin_[s], row_begin_[s + 1])
  std::vector<int> block_body_;    // grouped body of each block
  std::vector<double> block_;      // 6 per block: J_{i,b}
  std::vector<double> d_, u_, V_;  // damping, row velocities, twists/forces (6 per body)
};

}  // namespace ncp
