// Co-rotational linear FEM on linear tetrahedra (002 §II-A, ref. [47]; Müller & Gross 2004).
// Per tet: rest shape matrix Dm, shape-function gradients g_a, volume V and the linear element
// stiffness K_e (12 × 12) of an isotropic material (Lamé λ, μ from E, ν):
//   K_e[a, b] = V (λ g_a g_bᵀ + μ g_b g_aᵀ + μ (g_a · g_b) I).
// At positions x the rotation R is the polar factor of F = Ds Dm⁻¹ = R S, and the element is the
// soft constraint of 002:7 with error e = Rᵀ x_e − X_e (R block-diagonal over the 4 nodes) and
// gain K_e: its force is f_e = −Jₑᵀ K_e e with Jₑ = Rᵀ, its stiffness Jₑᵀ K_e Jₑ = R K_e Rᵀ
// (the outer-product approximation of 002:8). The rest of the exact tangent, the geometric
// stiffness G from ∂R/∂x, is available for the damping policy of 002 §II-A
// (D = diagonal absolute column sums of G).
// Masses are lumped: each node gets a quarter of the mass ρV of every tet it belongs to.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/physics/fem/tet_mesh.h"

namespace ncp::physics {

struct FemMaterial {
  double youngs = 1e5;    // E [Pa]
  double poisson = 0.3;   // ν, in [0, 0.5)
  double density = 1000;  // ρ [kg/m³]
};

using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;

class CorotationalFem {
 public:
  // Throws ncp::Error on a bad material or a degenerate / inverted rest tet.
  CorotationalFem(const TetMesh& mesh, const FemMaterial& material);

  int num_nodes() const { return num_nodes_; }
  int num_tets() const { return static_cast<int>(tets_.size()); }
  const std::vector<double>& node_mass() const { return mass_; }
  const Mat12& element_stiffness(int t) const { return ke_[t]; }

  // Rotations of every tet at node positions x (3 per node); later calls use them.
  void UpdateRotations(const Vec& x);
  const Mat3& rotation(int t) const { return rot_[t]; }

  // f += −Σ_e R K_e (Rᵀ x_e − X_e), the elastic forces at x (rotations from UpdateRotations(x)).
  void AddForces(const Vec& x, Vec& f) const;
  // scale · R K_e Rᵀ of every tet as triplets, dofs shifted by `offset`.
  void AddStiffness(double scale, int offset, std::vector<Eigen::Triplet<double>>& out) const;
  // Geometric stiffness of tet t at x: −∂f_e/∂x_e − R K_e Rᵀ (the derivative of R), so that
  // R K_e Rᵀ + G is the exact tangent of the co-rotational force. Zero for a tet whose polar
  // derivative is singular (an element flattened to a line).
  Mat12 GeometricStiffness(int t, const Vec& x) const;
  // diag += scale · (Σ_i |G_ij|)_j over every tet: the SPD projection of 002 §II-A by diagonal
  // absolute column sums.
  void AddProjectedGeometricStiffness(const Vec& x, double scale, Vec& diag) const;

 private:
  Vec12 Gather(const Vec& x, int t) const;

  int num_nodes_ = 0;
  std::vector<std::array<int, 4>> tets_;
  std::vector<Mat3> dm_inv_;
  std::vector<Vec12> rest_;  // X_e
  std::vector<Mat12> ke_;
  std::vector<Mat3> rot_, stretch_;  // R and S of the polar decomposition
  std::vector<double> mass_;
};

}  // namespace ncp::physics
