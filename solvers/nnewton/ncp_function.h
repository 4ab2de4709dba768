// Per-constraint NCP functions φ_i(u_i, λ_i) = 0 ⇔ (u_i, λ_i) ∈ S_i, u_i = J_i v + e_i, and one
// element of their generalized Jacobian (∂φ/∂u, ∂φ/∂λ), for the nonsmooth Newton of 000 §IV-B4
// (Macklin et al. 2019). Velocities enter scaled by ρ_i ≈ 1/W_ii so both arguments are
// impulses (the complementarity preconditioning of Macklin et al.):
//   unilateral, contact normal: Fischer–Burmeister φ = ρu + λ − √(ρ²u² + λ²);
//   contact tangent: φ_t = λ_t − Π_{disk(μ λ_n⁺)}(λ_t − ρ u_t) (maximal dissipation; one scalar
//                    ρ per contact keeps the fixed point at u_t ∥ −λ_t);
//   bilateral: φ = ρu;  soft: φ = λ + k e + d (u − e)  (λ = −k e − d J v, 004:4).
#pragma once

#include <Eigen/Core>

#include "problems/model/contact_problem.h"

namespace ncp {

// φ at (u, λ) into phi; Du = ∂φ/∂u and Dl = ∂φ/∂λ (rows × rows, top-left of 3×3).
void NcpFunction(const Constraint& c, double rho, const double* u, const double* lambda,
                 const double* e, double* phi, Eigen::Matrix3d* Du, Eigen::Matrix3d* Dl);

}  // namespace ncp
