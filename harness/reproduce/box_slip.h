// The maximal-dissipation path of a box slipping on a floor with ellipsoidal friction (scene
// box_slip, 002 §V-G, Prop. 6), in the time discretisation of our steppers: each step, the friction
// impulse per unit mass p maximizes the dissipation −p·v_{k+1} over the ellipse
// ‖(p_x/μ_x, p_y/μ_y)‖ ≤ g dt, with v_{k+1} = v_k + p and x_{k+1} = x_k + dt v_{k+1}. The box
// sticks when −v_k lies in the ellipse; else p = −g dt M² v_{k+1} / ‖M v_{k+1}‖ (M = diag(μ_x,
// μ_y)), so v_{k+1,i} = v_{k,i} / (1 + g dt μ_i² / s) with s = ‖M v_{k+1}‖, the root of a scalar
// equation found by bisection. The friction is not opposite to the velocity unless μ_x = μ_y:
// the path curves towards the axis of lower friction.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace ncp {

// One step of the maximal-dissipation solution from the planar velocity v.
Eigen::Vector2d MdpStep(const Eigen::Vector2d& v, double mu_x, double mu_y, double g, double dt);

// The planar positions x_0 = 0, x_1 … x_steps of the maximal-dissipation path from v0.
std::vector<Eigen::Vector2d> MdpPath(const Eigen::Vector2d& v0, double mu_x, double mu_y, double g,
                                     double dt, int steps);

// The angle [deg] the velocity turns through along a path, from its first step to its last step
// faster than `moving` × the first step's speed (0 for a path that stops at once).
double HeadingTurn(const std::vector<Eigen::Vector2d>& path, double moving = 0.01);

}  // namespace ncp
