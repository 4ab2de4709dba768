// Contact constraint splitting (CCS; 002 §V-E1, its ref. [16]: Daviet 2020, "Simple and scalable
// frictional contacts for thin nodal objects"). ADMM on the velocity v and a copy p of it that
// carries the contacts, in the metric of a positive diagonal W:
//   v ← (A + W)⁻¹ (b + W (p + y))                                  (the dynamics, no contacts)
//   p ← W p = W (v − y) + Jᵀ r, (J p + e, r) Signorini–Coulomb     (the contacts, mass W)
//   y ← y + p − v
// A + W is factored once: W does not change, so no contact enters a linear system, and the
// contact step's Delassus operator J W⁻¹ Jᵀ is as sparse as the contacts' coupling through
// shared dofs (on nodal objects a contact touches one or two nodes). The contact step is solved
// inexactly, by `sweeps` projected Gauss–Seidel sweeps warm-started from the last r. The run's
// (v, λ) are (p, r): p is the variable the contacts hold on (002: "the projection variable of CCS
// guarantees the contact feasibility").
#pragma once

#include <memory>
#include <vector>

#include "problems/linalg/cholmod_llt.h"
#include "solvers/common/dual_problem.h"
#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp {

// ccs's settings, read once in Setup.
struct CcsSettings {
  // W = weight · diag(A). Daviet 2020 takes W near the potential's Hessian (here A's diagonal):
  // lower weights converge faster until the iteration no longer converges.
  double weight = 1.0;
  int sweeps = 1;  // Gauss–Seidel sweeps of the contact step per iteration
  CholmodLLT::Kind factor = CholmodLLT::Kind::kAuto;

  static const SettingsTable<CcsSettings>& Table();
};

class CcsSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  // ‖p − v‖ and ‖W (p − p_prev)‖ of the last iteration (ADMM's primal and dual residuals), the
  // weight, and the one factorization of Setup.
  SolverStats Stats() const override;
  WorkCount Work() const override;

 private:
  const ContactProblem* p_ = nullptr;
  CcsSettings set_;
  Vec w_;                             // diagonal of W
  SpMat K_;                           // A + W
  std::unique_ptr<CholmodLLT> chol_;  // K's factor
  SpMat Jt_;
  DualProblem contact_;  // W_c = J W⁻¹ Jᵀ; its q is rebuilt each iteration from q0_
  Vec q0_;               // e with the soft rows folded
  std::vector<double> tangent_step_;
  Vec v_, p_vel_, y_, r_, rhs_, start_, jtr_, p_prev_;
  double primal_ = 0.0, dual_ = 0.0;
  int iter_ = 0;
};

}  // namespace ncp
