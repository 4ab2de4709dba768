// Staggered projections (Kaufman, Sueda, James & Pai 2008, "Staggered projections for frictional
// contact in multibody systems"; the SP of 003 Alg. 2) on the dual form u = W λ + q: each outer
// iteration solves the contact QP (normal and every non-contact row, friction held) and then the
// friction QP (tangential impulses in μ λ_n's set, normals held). Both QPs are convex; each is
// solved by projected Gauss–Seidel sweeps to an inner tolerance. The friction set is the exact
// Coulomb disk (default) or 003's box |λ_t,k| ≤ μ λ_n, whose fixed points are not solutions of the
// disk problem that res004 measures.
#pragma once

#include <Eigen/Dense>

#include "solvers/common/dual_solver.h"
#include "solvers/settings_table.h"

namespace ncp {

struct SpSettings {
  enum class Cone { kExact, kBox };
  static constexpr auto kCones = ChoiceNames<Cone>({{Cone::kExact, "exact"}, {Cone::kBox, "box"}});
  Cone cone = Cone::kExact;
  // How the contact QP is solved: projected Gauss–Seidel sweeps, or (when every row of it is an
  // equality: bilateral, soft and joint-friction normal rows) exactly, by a dense LDLᵀ of its
  // block of W factorized once in setup — what a QP solver does with an equality-only QP.
  enum class ContactQp { kPgs, kDirect };
  static constexpr auto kContactQps =
      ChoiceNames<ContactQp>({{ContactQp::kPgs, "pgs"}, {ContactQp::kDirect, "direct"}});
  ContactQp contact_qp = ContactQp::kPgs;
  int inner = 50;            // most PGS sweeps per QP
  double inner_tol = 1e-10;  // a QP stops when no λ moved more than this × max |λ|
  static const SettingsTable<SpSettings>& Table();
};

class SpSolver : public DualSolver {
 public:
  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override;
  Status Iterate() override;
  std::vector<std::pair<std::string, double>> Info() const override;
  SolverStats Stats() const override;

 private:
  double ContactSweep();   // one sweep of the contact QP; returns the largest change
  void ContactDirect();    // the equality-only contact QP solved exactly
  double FrictionSweep();  // one sweep of the friction QP
  double Scale() const;    // max |λ|: relative, so that a problem's units do not matter

  SpSettings set_;
  std::vector<double> tangent_step_;
  std::vector<int> eq_rows_;          // contact_qp = direct: the contact QP's rows
  Eigen::LDLT<Eigen::MatrixXd> Wee_;  // ... and its block of W
  Vec eq_u_;                          // buffer
  int inner_sweeps_ = 0;              // over both QPs, since setup
};

}  // namespace ncp
