// Kinematics and dynamics of an ArticulatedModel: forward kinematics, body twists and body
// Jacobians J_{b,j}, the joint-space mass matrix by CRBA, inverse dynamics by RNEA, and the
// configuration update with a velocity.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "problems/physics/dynamics/articulated_model.h"

namespace ncp::physics {

using Eigen::MatrixXd;
using Eigen::VectorXd;

struct Kinematics {
  std::vector<Pose> local;  // pose of link i in its parent's frame (the world for roots)
  std::vector<Pose> world;  // pose of link i in the world
};

void ForwardKinematics(const ArticulatedModel& m, const VectorXd& q, Kinematics& k);

// Motion subspace S of link i's joint in the link frame (6 × nv of the joint).
Eigen::Matrix<double, 6, Eigen::Dynamic> MotionSubspace(const Link& l);

// Twists of every link, in the link frames.
void BodyTwists(const ArticulatedModel& m, const Kinematics& k, const VectorXd& v,
                std::vector<Vec6>& twist);

// J_b (6 × nv) with twist_b = J_b v.
void BodyJacobian(const ArticulatedModel& m, const Kinematics& k, int b, MatrixXd& J);

// Joint-space mass matrix H(q) by the composite-rigid-body algorithm.
MatrixXd MassMatrix(const ArticulatedModel& m, const Kinematics& k);

// τ = H(q) a + C(q, v) − (gravity forces) by recursive Newton–Euler; gravity in world frame.
VectorXd InverseDynamics(const ArticulatedModel& m, const Kinematics& k, const VectorXd& v,
                         const VectorXd& a, const Vec3& gravity);

// q ← q ⊕ dt·v (SE(3) update of floating joints with the body twist, quaternion renormalized).
void IntegrateConfiguration(const ArticulatedModel& m, VectorXd& q, const VectorXd& v, double dt);

// Kinetic energy ½ Σ_b V_bᵀ M_b V_b (for tests).
double KineticEnergy(const ArticulatedModel& m, const Kinematics& k, const VectorXd& v);

}  // namespace ncp::physics
