// Bilateral Staggered Projections (003 Alg. 3, §5.2): staggered projections for joint friction
// in which the contact QP is replaced by the reduced-coordinate solve. In reduced coordinates
// v = G v_r + g0 (JointTree) the joints hold by construction and their impulses do no work
// (Gᵀ Nᵀ = 0), so the friction QP of 003:12 reads u_t = W_r λ_t + q_r with the constant
// W_r = T G (Gᵀ A G)⁻¹ Gᵀ Tᵀ; only its bounds μ|λ_n| depend on the normal impulses. Each outer
// iteration
//   1. solves the friction QP (the box |λ_t| ≤ μ|λ_n| of each implicit contact, exact for a 1-dof
//      joint) by projected Gauss–Seidel sweeps on (W_r, q_r) with the normal impulses held, then
//   2. takes the constrained velocity with the friction held (003:15c), reads the joints' total
//      wrench off the force balance, Nᵀλ_n = A v − b − Tᵀλ_t (003:15a, with A in place of M_m so
//      that stiff maximal terms in A stay consistent), distributes it from the leaves to the root
//      (003 §5.2.2) and solves each joint's normal impulses locally (003:16).
// The normal rows hold exactly at every iterate (drift e_n included); only friction is iterated.
// Problems of joint-friction constraints only, on free rigid bodies in maximal coordinates
// forming a forest (003 §5.3's external contacts and loop closures are not implemented: such
// problems are refused as not applicable). W_r is dense: 25 entries per pair of joints.
#pragma once

#include <Eigen/Dense>

#include "solvers/bisp/joint_tree.h"
#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp {

struct BispSettings {
  int inner = 50;            // most PGS sweeps of the friction QP per outer iteration
  double inner_tol = 1e-10;  // the QP stops when no λ_t moved more than this × max |λ|
  double eps = 0.0;          // 003:16's regularization, relative to mean diag(N M⁻¹ Nᵀ)
  static const SettingsTable<BispSettings>& Table();
};

class BispSolver : public Solver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  void Current(Vec& v, Vec& lambda) const override;
  std::vector<std::pair<std::string, double>> Info() const override;
  SolverStats Stats() const override;

 private:
  Status CheckFinite();
  void ContactStep();      // normal impulses from the reduced solve with the friction held
  double FrictionSweep();  // one PGS sweep of the friction QP; returns the largest change

  BispSettings set_;
  JointTree tree_;
  const std::vector<Constraint>* constraints_ = nullptr;
  SpMat A_, Jt_;
  Vec b_;
  Eigen::MatrixXd Gt_;              // Gᵀ
  Eigen::LLT<Eigen::MatrixXd> Mr_;  // Gᵀ A G
  Vec r0_;                          // Gᵀ A g0
  Eigen::MatrixXd Wr_;              // friction QP in reduced coordinates, one row per contact
  Vec qr_;
  Vec lambda_;  // [λ_n, λ_t] per constraint, as J's rows
  // Buffers of the contact step (no allocation in Iterate).
  Vec beta_, rhs_, rhs_r_, v_, wrench_;
  int inner_sweeps_ = 0;
  double wrench_change_ = 0.0;  // ‖Δλ_n‖ of the last contact step (003's convergence check)
};

}  // namespace ncp
