// Factorization of a subsystem matrix K = Σ_b J_bᵀ H_b J_b (+ joint-space diagonal terms) for a
// kinematic tree (004:40), with the per-body 6×6 H_b of 004:41. Two algorithms:
//  * kCrba: composite-rigid-body assembly of K, then the LTDL factorization with branch-induced
//    sparsity (Featherstone, RBDA §6.5): fill-in only along each dof's ancestors.
//  * kAba:  articulated-body inertias (004 Remark 1): O(bodies) factorization and solve.
// No heap allocation after Init().
#pragma once

#include <Eigen/Core>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/common/spatial_inertia.h"
#include "solvers/solver.h"

namespace ncp {

class TreeFactor {
 public:
  enum class Method { kCrba, kAba };
  struct Body {
    int parent = -1;  // index into this subsystem's body list, < own index
    int dof = 0, ndof = 0;
    Mat6 X = Mat6::Identity();  // parent twist → body twist
    Mat6 S = Mat6::Zero();      // first ndof columns used
    // From the structure layer's tree data; `parent`: its index in this tree (−1: a root).
    static Body FromStructure(const Structure::Body& b, int parent) {
      Body x;
      x.parent = parent;
      x.dof = b.joint_dof, x.ndof = b.joint_dofs;
      x.X = b.transform;
      x.S.leftCols(x.ndof) = b.jacobian.middleCols(x.dof, x.ndof);
      return x;
    }
  };

  // bodies: the subsystem's bodies in order (parents first); n: its dof count. Returns false with
  // a reason when the tree is not usable (dofs not ordered parent before child, gaps, ...).
  bool Init(std::vector<Body> bodies, int n, Method method, std::string* why);
  // H[b]: per-body matrices (indexed like bodies);
  // diag: optional per-dof terms added to K's diagonal (joint-space rows; like rotor inertia in
  // the articulated-body recursion). nullptr for none. Returns false when K is not positive
  // definite.
  bool Factorize(const Mat6* H, const double* diag = nullptr);
  // K = Σ_b J_bᵀ H_b J_b by composite rigid bodies, into K's lower triangle (branch pattern).
  void Assemble(const Mat6* H, Eigen::MatrixXd& K);
  // K = A + β C (lower triangles, both on the branch pattern), then the LTDL elimination. CRBA is
  // linear in H: with C = CRBA of Σ JᵀJ and A = CRBA of the bodies' inertias this is 004:40.
  bool FactorizeSum(const Eigen::MatrixXd& A, double beta, const Eigen::MatrixXd& C);
  // x = K⁻¹ r (x may alias r).
  void Solve(const double* r, double* x);
  // One Solve(): CRBA reads L along the ancestor lists twice (values, indices) and 1/D; ABA
  // reads each body's X, U and D⁻¹ on the way up and down (solvers/common/work_count.h).
  WorkCount SolveWork() const;
  // One BodyTwists() or JointForces(): each body's X and its joint's S columns once.
  WorkCount PassWork() const;
  // Body twists V_b = X_b V_parent + S_b q̇ (forward pass), written as 6 numbers per body.
  void BodyTwists(const double* v, double* V) const;
  // Joint forces τ = Σ_b J_bᵀ F_b (backward pass); F (6 per body) is overwritten.
  void JointForces(double* F, double* tau) const;
  // The same for two force sets at once (columns of F, one 6×2 per body; overwritten).
  void JointForces2(Eigen::Matrix<double, 6, 2>* F, double* tau1, double* tau2) const;
  // K as it was before the last elimination (tests; kCrba only).
  const Eigen::MatrixXd& assembled() const { return K0_; }
  // True when every entry of M's strict lower triangle above tol lies on the branch pattern
  // (row dof's ancestors), i.e. adding M keeps the tree elimination exact.
  bool CoversPattern(const Eigen::MatrixXd& M, double tol) const;
  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  Method method() const { return method_; }
  // Switching method allocates what the other one needs (call at setup, not per iteration).
  void set_method(Method m);

 private:
  bool FactorCrba(const Mat6* H, const double* diag);
  bool FactorAba(const Mat6* H, const double* diag);
  bool Eliminate();  // LTDL of K_ in place
  void AllocateCrba();

  std::vector<Body> bodies_;
  int n_ = 0;
  Method method_ = Method::kCrba;
  std::vector<int> dof_parent_;  // λ(k): the previous dof on the path to the root, −1 at a root
  std::vector<int> anc_begin_, anc_;  // CSR: every ancestor dof of each dof (nearest first)
  std::vector<double> lval_, inv_d_;  // L along anc_, 1/D
  // The same entries of L by column: every descendant dof of each dof, farthest (highest) first,
  // so that Lᵀ z = r gathers each z_a in a register, subtracting in the order the row-wise
  // scatter did (the same bits). desc_at_[t]: where anc_'s entry t sits in desc_.
  std::vector<int> desc_begin_, desc_, desc_at_;
  std::vector<double> dval_;
  struct Rigid {  // X = [Rᵀ, −Rᵀ[p]; 0, Rᵀ] when ok
    bool ok = false;
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
  };
  std::vector<Rigid> rigid_;
  std::vector<Mat6> Ic_;        // composite (CRBA) or articulated (ABA) inertias
  std::vector<Mat6> U_, Dinv_;  // ABA: U = I^A S, D⁻¹ (top-left ndof × ndof)
  std::vector<Eigen::Matrix<double, 6, 1>> pA_, acc_;
  Eigen::MatrixXd K_, K0_;  // CRBA: K, then its LTDL factors in the lower triangle
  Eigen::VectorXd u_;
};

}  // namespace ncp
