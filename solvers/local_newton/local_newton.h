// Nonsmooth Newton on the Alart–Curnier function of the dual form u = W r + q (Alart & Curnier
// 1991; Siconos NSN-AC), with a non-monotone Armijo line search and a proximal-point fallback
// (Acary, Brémond & Huber 2018: PROX around NSN is what solves the whole fclib collection).
//
// Per contact [n, t1, t2], with x_N = r_N − ρ_N u_N, x_T = r_T − ρ_T u_T:
//   φ_N = r_N − max(0, x_N),   φ_T = r_T − Π_{disk(μ max(0, x_N))}(x_T);
// unilateral rows φ = r − max(0, r − ρ u); bilateral and folded soft rows (equality rows of the
// dual, dual_problem.cc) φ = ρ u. ρ_N = 1/W_NN, ρ_T = 2/(W_t1t1 + W_t2t2) (one scalar per
// contact: a diagonal metric on the disk would not give u_T ∥ −r_T), diagonals floored at
// diag_floor · max W_ii, times rho_scale. The zeros of Φ do not depend on ρ.
//
// Rules:
//  * Newton mode: one Iterate() = solve (D_r + D_u W) d = −Φ, then backtracking Armijo on
//    θ = ½‖Φ‖² against the largest of the last `nonmonotone` merits (Grippo et al. 1986).
//    Linear algebra: dense partial-pivot LU in place (m ≤ 300 or W ≥ 10 % full; unblocked up
//    to 1024 rows, allocation free) or sparse LU on the pattern of W plus the diagonal blocks,
//    analyzed in Setup (Eigen's SparseLU allocates inside its numeric factorization, as in
//    nnewton).
//  * The step is unusable when a pivot falls below 1e-12 of the largest (dense), the
//    factorization fails (sparse), d is non-finite, the line search reaches min_alpha, or the
//    best ‖Φ‖ has not dropped by 10 % in `stall_steps` steps: the solver then switches to
//    proximal mode with center r_c = r (proximal=always: from the start).
//  * Proximal mode: the same Newton step on W + σI, q − σ r_c (its solution is the proximal
//    point of the original problem at r_c; at r = r_c both residuals coincide). σ =
//    κ · prox_sigma · mean W_ii · min(1, ‖Φ(r_c)‖ / ‖ρ q‖): proportional to the residual at
//    the center (Siconos PROX's adaptive σ = σ₀ · error^ν, ν = 1), clamped to
//    [1e-10, 1e8] · mean W_ii. The center moves to r when the inner residual is below
//    prox_inner_tol · ‖Φ(r_c)‖; a subproblem solved in at most two steps sets
//    κ ← max(1, prox_shrink · κ). A failed inner step, or `prox_inner_steps` steps without
//    reaching the inner tolerance, moves the center and sets κ ← 10 κ. The solver stays in
//    this mode: with σ small its steps are Newton steps on a W made nonsingular, which a
//    rank-deficient W (sticking contacts in stacks) needs near the solution. Fixed points
//    have r = r_c, hence solve the original problem.
// Deterministic: no randomness, sequential loops.
#pragma once

#include <array>

#include <Eigen/Dense>
#include <Eigen/SparseLU>

#include "solvers/common/dual_solver.h"
#include "solvers/settings_table.h"

namespace ncp {

struct LocalNewtonSettings {
  enum class Proximal { kFallback, kAlways };
  static constexpr auto kProximals =
      ChoiceNames<Proximal>({{Proximal::kFallback, "fallback"}, {Proximal::kAlways, "always"}});
  enum class LinearSolver { kAuto, kDense, kSparse };
  static constexpr auto kLinearSolvers =
      ChoiceNames<LinearSolver>({{LinearSolver::kAuto, "auto"},
                                 {LinearSolver::kDense, "dense"},
                                 {LinearSolver::kSparse, "sparse"}});
  double rho_scale = 1.0, armijo = 1e-4, min_alpha = 1e-8;
  int nonmonotone = 5, stall_steps = 5, prox_inner_steps = 10;
  Proximal proximal = Proximal::kFallback;
  double prox_sigma = 0.1, prox_shrink = 0.1, prox_inner_tol = 0.1, diag_floor = 1e-12;
  LinearSolver linear_solver = LinearSolver::kAuto;
  static const SettingsTable<LocalNewtonSettings>& Table();
};

class LocalNewtonSolver : public DualSolver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  std::vector<std::pair<std::string, double>> Info() const override;

 private:
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // Φ at r for the current (σ, r_c) into phi, u (with the σ term) into u; returns ‖Φ‖.
  double Residual(const Vec& r, Vec& u, Vec& phi) const;
  // Fills the Newton matrix at (r, u) and factorizes it; false when the factorization failed.
  bool FactorizeJacobian(const Vec& r, const Vec& u);
  // Backtracking along d_ from lambda_; on success swaps in the trial point and returns true.
  bool LineSearch(double slope);
  void EnterProx();
  // r_c ← r, ‖Φ(r_c)‖, σ from κ and that residual.
  void MoveCenter();
  void ResetMemory(double theta);

  // Settings.
  LocalNewtonSettings set_;

  int m_ = 0;
  bool dense_ = true;
  std::vector<double> dg_;  // floored diagonal per row (tangent rows: their mean)
  double scale_ = 1.0;      // mean floored diagonal: the scale of σ
  // Dense path: W row-major (row i = row i of W), the Newton matrix and its LU.
  // Factorized in place by Eigen's partial-pivot LU kernel: PartialPivLU::compute() also forms
  // a column-sum temporary (for rcond), which would allocate in every step.
  RowMat Wd_, H_;
  Eigen::Transpositions<Eigen::Dynamic> perm_;
  // Sparse path: per constraint the union of the column patterns of its rows of W, the rows'
  // values on that union (rows × k, row-major), and the value index of each (row, column) in Hs_.
  SpMat Wt_;  // W stored as in DualProblem (column i = row i of W)
  std::vector<int> cols_, col_begin_, val_begin_, hidx_;
  std::vector<double> wvals_;
  std::vector<int> diag_slot_;  // per row r: index in the union list of its block where col = r
  SpMat Hs_;
  Eigen::SparseLU<SpMat> slu_;

  // State.
  Vec u_, phi_, d_, rtry_, utry_, phitry_, rc_;
  double fnorm_ = 0.0, sigma_ = 0.0, center_norm_ = 0.0, best_ = 0.0, phi_floor_ = 0.0;
  double phi_ref_ = 0.0, kappa_ = 1.0;
  bool prox_ = false;
  std::array<double, 50> memory_{};
  int mem_count_ = 0, mem_pos_ = 0, since_best_ = 0, inner_steps_ = 0;
  long newton_steps_ = 0, ls_steps_ = 0, ls_failures_ = 0, center_updates_ = 0, prox_entries_ = 0,
       factor_failures_ = 0;
};

}  // namespace ncp
