// Contact nodalization (002 §III-A): every hard constraint of the problem is made to act on a
// node of its own, so that a block-scalar step matrix P makes the surrogate Delassus operator
// diagonal (002 Prop. 3).
//  * A contact whose 3 rows are R·(one dof triplet) is an S-contact on that node; one whose rows
//    are R on a triplet and −R on a disjoint triplet is a D-contact between two nodes (002:13),
//    R orthonormal. A node serves at most one contact: a second contact on the same dofs would
//    couple the two through P and break the diagonal structure, so it gets a virtual node.
//  * Every other hard constraint (general contact rows, unilateral and bilateral rows) gets a
//    mass-less virtual node w_i (one dof per row, in the constraint's own frame) tied to J_i v by
//    the viscous damping of 002:14, giving the augmented system of 002:15
//      [A + Jᵥᵀ Γ Jᵥ, −Jᵥᵀ Γ; −Γ Jᵥ, Γ] [v; w] = [b; 0] + Ĵᵀ λ,   Ĵ_i = I on w_i.
//    Eliminating w gives back A v = b + Jᵀλ exactly (002:18); the constraint then holds on
//    w_i = J_i v + λ_i/γ_i, a perturbation that vanishes as γ grows (002 Prop. 2).
// Soft rows are folded into A beforehand (problems/model/fold_soft.h).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp::cond {

enum class NodeKind : std::uint8_t { kNodalS, kNodalD, kVirtual };

struct NodalConstraint {
  ConstraintType type = ConstraintType::kContact;
  NodeKind kind = NodeKind::kVirtual;
  double mu = 0.0;
  int row = 0;                                      // first row in J, e and λ
  int rows = 3;                                     // 3 (contact) or 1
  int dof_a[3] = {-1, -1, -1};                      // node a (virtual: w_i, one dof per row)
  int dof_b[3] = {-1, -1, -1};                      // node b of a D-contact
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  // Ĵ_i = R on a (and −R on b); I if virtual
  int block = -1;      // step-size block shared by its dofs (002 Prop. 3, §IV-C1)
  double gamma = 0.0;  // damping gain γ_i of a virtual node (002:14), 0 if nodal
};

struct Nodalization {
  int n = 0;                                 // dofs of the original problem
  int dofs = 0;                              // n + virtual dofs
  SpMat A;                                   // Â, dofs × dofs, symmetric, both triangles
  Vec b;                                     // b̂ = [b; 0]
  std::vector<NodalConstraint> constraints;  // one per hard constraint, in row order
  // Step-size blocks: dofs block_dofs[block_ptr[k] .. block_ptr[k+1]) share one p (a node in
  // contact, both nodes of a D-contact, a virtual node). Other dofs are free.
  std::vector<int> block_ptr{0}, block_dofs;
  int nodal_s = 0, nodal_d = 0, virtual_nodes = 0;
};

// Tolerance on ‖R Rᵀ − I‖_max and on ‖R_b + R_a‖_max when recognising a nodal block.
constexpr double kNodalTolerance = 1e-10;

// `p` is a global problem without soft rows. γ_i = gamma / d_i, with d_i the Jacobi estimate
// Σ_j J_rj²/A_jj of the Delassus diagonal averaged over the constraint's rows: γ is a multiple of
// the contact's effective mass, so `gamma` is the ratio of that mass to the perturbation's
// compliance 1/γ_i (dimensionless, scale-free).
Nodalization Nodalize(const ContactProblem& p, double gamma);

// Per row of `p`, the regularization R_i = r · d_i of 002:37 of its constraint (d_i as for γ:
// the Jacobi estimate Σ_j J_rj²/A_jj averaged over the constraint's rows; soft rows get 0).
// COND's regularization setting and the inverse of its contact model share it.
Vec Regularization(const ContactProblem& p, double r);

// The nodalized problem of 002:15 as a global ContactProblem over v and the virtual nodes (Â, b̂,
// Ĵ, the constraints and e of `p`), so that any solver can solve COND's formulation exactly: its
// first `nd.n` velocities are the original system's. `nd` must be Nodalize(p, ·).
ContactProblem NodalizedProblem(const ContactProblem& p, const Nodalization& nd);

}  // namespace ncp::cond
