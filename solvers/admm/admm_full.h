// Full-system ADMM (004:28; 000 "FADMM"; 004 Table III "No Sub"):
//   (A + β JᵀJ) v̂ = b + Jᵀ(β z − u),  λ_i = T(−β J_i v̂ − u_i − β e_i),
//   z_i = J_i v̂ + (u_i + λ_i)/β,      u_i ← u_i + β (J_i v̂ − z_i)  (= −λ_i)
// with a per-constraint β (β scaled by each constraint's effective mass, row_scaling), the
// adaptive β of 004:43 (balance) and a numeric CHOLMOD refactorization on the fixed pattern.
#pragma once

#include <memory>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/common/adaptive_penalty.h"
#include "solvers/common/body_trees.h"
#include "solvers/common/factor_setting.h"
#include "solvers/common/pcg.h"
#include "solvers/common/projected_block_jacobi.h"
#include "solvers/solver.h"

namespace ncp {

// admm-full's settings, read once in Setup.
struct AdmmFullSettings {
  // Initial β when none is given.
  enum class BetaRule { kMass, kDensity };
  static constexpr auto kBetaRules =
      ChoiceNames<BetaRule>({{BetaRule::kMass, "mass"}, {BetaRule::kDensity, "density"}});

  // How (A + β JᵀJ) v̂ = r is solved: CHOLMOD, refactored when β changes, or PCG with 003's
  // projected block-Jacobi preconditioner (on kinematic trees: β's terms enter only on each
  // body's 6×6 block, refactored in O(bodies)), warm-started from the previous v̂.
  enum class Linear { kCholmod, kPcgPbj };
  static constexpr auto kLinears =
      ChoiceNames<Linear>({{Linear::kCholmod, "cholmod"}, {Linear::kPcgPbj, "pcg-pbj"}});

  double beta = 0.0;  // 0: from beta_rule
  BetaRule beta_rule = BetaRule::kMass;
  bool adaptive = true;
  bool row_scaling = true;
  PenaltyRule balance = PenaltyRule::kRelative;
  double gamma = 10.0;
  int adapt_every = 1;
  Linear linear = Linear::kCholmod;
  CholmodLLT::Kind factor = CholmodLLT::Kind::kAuto;  // solvers/common/factor_setting.h
  double pcg_tol = 1e-10;                             // relative to the right-hand side
  int pcg_max_iters = 1000;

  static const SettingsTable<AdmmFullSettings>& Table();
};

class AdmmFullSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // θ_p and θ_d of the last iteration (those 004:43 balances), β (before the per-constraint
  // row scaling) and the refactorizations, Setup's included.
  SolverStats Stats() const override;
  WorkCount Work() const override;

 private:
  bool Refactorize();
  // x = (A + β JᵀJ)⁻¹ rhs, x holding the initial guess on the PCG route; false with message_
  // set when PCG does not reach its tolerance.
  bool SolveK(const Vec& rhs, Vec& x);
  static double InitialBeta(const ContactProblem& p);

  const ContactProblem* p_ = nullptr;
  double beta_ = 0.0, beta0_ = 0.0;
  PenaltyAdapter adapter_;
  bool adaptive_ = true;
  SpMat K_;  // A + β JᵀJ; its values are rebuilt in place when β changes
  std::vector<double> a_vals_, j_vals_;  // A and JᵀJ on K's pattern
  std::unique_ptr<CholmodLLT> chol_;     // the cholmod route's factor of K
  AdmmFullSettings::Linear linear_ = AdmmFullSettings::Linear::kCholmod;
  double pcg_tol_ = 1e-10;
  int pcg_max_iters_ = 1000;
  BodyTrees trees_;
  ProjectedBlockJacobi pbj_;
  Pcg pcg_;
  Vec residual_, dv_;  // PCG workspaces
  long pcg_iterations_ = 0;
  SpMat Jt_;
  Vec rw_;  // per row: weight of β (the same for a constraint's rows)
  Vec v_, z_, u_, lambda_, Jv_, rhs_, tmp_, Av_, dual_;  // tmp_: Jᵀλ; Av_: A v̂
  double b_norm_ = 0.0;
  double theta_p_ = 0.0, theta_d_ = 0.0;
  int iter_ = 0, refactorizations_ = 0;
  // At the end of Setup: the iterations' own refactorizations and PCG steps are the rest.
  int setup_refactorizations_ = 0;
  long setup_pcg_iterations_ = 0;
};

}  // namespace ncp
