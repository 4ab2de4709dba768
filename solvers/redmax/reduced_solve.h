// x = A'⁻¹ r for the reduced system A' = A + J_sᵀ D J_s, by one of three routes (`linear`):
// PCG with the projected block-Jacobi preconditioner (matrix-free, 003 §3; A' applied through
// the bodies where the structure blocks reproduce J_s, else by sparse products), CHOLMOD on the
// assembled A', or a dense LLT. Counts PCG iterations and numeric factorizations. Solve()
// allocates nothing after Setup().
#pragma once

#include <Eigen/Cholesky>
#include <functional>
#include <memory>
#include <string>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/common/pcg.h"
#include "solvers/common/body_trees.h"
#include "solvers/common/projected_block_jacobi.h"
#include "solvers/redmax/reduced_operator.h"
#include "solvers/redmax/redmax_settings.h"
#include "solvers/redmax/tree_operator.h"
#include "solvers/solver.h"

namespace ncp {

class ReducedSolve {
 public:
  // kRunning, or kNotApplicable (pcg-pbj without usable trees) / kFailed (a factorization) with
  // the reason in *why. `op` and `p` must outlive this object; `stop` ends PCG loops early.
  Status Setup(const ContactProblem& p, const std::vector<int>& soft, const ReducedOperator& op,
               const RedmaxSettings& set, std::function<bool()> stop, std::string* why);
  // x = A'⁻¹ r; false with the reason in *why when PCG did not reach ‖r − A'x‖ ≤ pcg_tol ·
  // reference (reference ≤ 0: ‖r‖) within pcg_max_iters, or broke down. A PCG stopped by the
  // deadline returns true with stopped() set.
  bool Solve(const Vec& r, Vec& x, std::string* why, double reference = 0.0);
  bool stopped() const { return stopped_; }
  int pcg_iterations() const { return pcg_total_; }
  int pcg_iterations_last() const { return pcg_last_; }
  int factorizations() const { return factorizations_; }
  // PCG applies A' through the bodies (TreeOperator) rather than by sparse products.
  bool tree_operator() const { return use_tree_op_; }
  // y = A' x by the route PCG uses (through the bodies where tree_operator(), else sparse).
  void ApplyOperator(const Vec& x, Vec& y);
  // λ_s of the soft rows at v by the same route.
  void SoftMultipliers(const Vec& v, Vec& lambda_s);

 private:
  RedmaxSettings set_;
  const ReducedOperator* op_ = nullptr;
  std::function<bool()> stop_;
  BodyTrees trees_;
  ProjectedBlockJacobi pbj_;
  TreeOperator tree_op_;
  bool use_tree_op_ = false;
  std::vector<double> rates_;  // J_s v through the bodies
  Pcg pcg_;
  std::unique_ptr<CholmodLLT> chol_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  int pcg_total_ = 0, pcg_last_ = 0, factorizations_ = 0;
  bool stopped_ = false;
};

}  // namespace ncp
