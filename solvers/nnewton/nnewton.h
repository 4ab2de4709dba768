// Nonsmooth Newton on the Fischer–Burmeister reformulation (000 §IV-B4, Macklin et al. 2019),
// global form: unknowns x = (v, λ), equations
//   F(x) = [ A v − b − Jᵀλ ;  φ_i(J_i v + e_i, λ_i) for every constraint ]  = 0
// (φ_i in ncp_function.h). One Iterate() = one Newton step on F with an element of its
// generalized Jacobian
//   G = [ A  −Jᵀ ; Φ_u J  Φ_λ + δ I ]
// (δ: a small regularization, J may be rank deficient), factorized by sparse LU on a pattern
// analyzed once, and Armijo backtracking on the merit ½‖F‖²; when the Newton direction finds no
// decrease, a backtracked steepest-descent step −Gᵀ F is tried instead.
#pragma once

#include <Eigen/SparseLU>

#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp {

struct NNewtonSettings {
  double rho_scale = 1.0;         // on each constraint's velocity scale
  double regularization = 1e-10;  // δ on the diagonal of Φ_λ
  double armijo = 1e-4;           // σ of the sufficient decrease
  double min_alpha = 1e-10;       // the backtracking's smallest step
  static const SettingsTable<NNewtonSettings>& Table();
};

class NNewtonSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // At the current x: ‖φ‖ over the constraints (primal) and ‖A v − b − Jᵀλ‖ (dual), the two
  // blocks of F; LU factorizations and line-search evaluations. No penalty, no inner iterations
  // (the linear solve is direct).
  SolverStats Stats() const override;

  // F(x) into f; returns ‖F‖ (public for tests).
  double Residual(const Vec& x, Vec& f);
  // G at x (after Residual at the same x); public for tests.
  const SpMat& Jacobian(const Vec& x);

 private:
  // Backtracking along d from x_ with merit ½‖F‖² = ½ f0²; slope = ∇θᵀd. Accepts and returns
  // true on sufficient decrease.
  bool LineSearch(const Vec& d, double f0, double slope);

  const ContactProblem* p_ = nullptr;
  int n_ = 0, m_ = 0;
  NNewtonSettings set_;
  std::vector<double> rho_;  // per constraint velocity scale
  SpMat G_;
  Eigen::SparseLU<SpMat> lu_;
  std::vector<int> cols_, col_begin_;  // per constraint: the columns of J_i
  std::vector<double> dense_;          // per constraint: rows × k dense J_i, row-major
  std::vector<int> dense_begin_;
  std::vector<int> bl_index_, bl_begin_;  // value index of G(n + row, col) per (row, col)
  std::vector<int> br_index_;             // value index of G(n + r0 + q, n + r0 + s), 9 each
  Vec x_, f_, d_, xtry_, ftry_, u_, g_;
  double fnorm_ = 0.0, alpha_ = 0.0;
  int iter_ = 0, ls_steps_ = 0, ls_failures_ = 0, gradient_steps_ = 0;
  int factorizations_ = 0, ls_evaluations_ = 0;
};

}  // namespace ncp
