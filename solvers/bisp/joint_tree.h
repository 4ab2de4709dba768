// The kinematic tree behind a maximal-coordinate problem whose joints are given by implicit
// contacts (ConstraintType::kJointFriction, 003 §5.2): the joints' normal rows N v + e_n = 0 are
// eliminated by reduced coordinates, v = G v_r + g0, built recursively from the root:
//   V_child = −N_c⁺ (N_p V_parent + e_n) + S q_joint,   S = null(N_c),
// so that the reduced velocity satisfies every joint exactly (drift e_n included) — the RedMax
// split of 003 §2 recovered from the problem's own rows rather than from a joint description.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

struct TreeJoint {
  int parent = -1;  // body index in JointTree::bodies; −1: the world
  int child = 0;
  std::vector<int> constraints;  // joint-friction constraints of this joint (k of them)
  Eigen::MatrixXd Nc, Np;        // k × 6 normal rows on the child's / parent's twist
  Eigen::VectorXd en;            // k normal biases
  // (N_c M_c⁻¹ N_cᵀ + ε I)⁻¹ N_c M_c⁻¹ (003:16): the joint's normal impulses from the wrench the
  // joint exerts on its child.
  Eigen::MatrixXd local;  // k × 6
};

struct JointTree {
  struct Body {
    int col = 0;     // first of its 6 columns in A and J
    int joint = -1;  // the joint to its parent (index in joints), −1: a free root
    Eigen::Matrix<double, 6, 6> mass;  // its 6 × 6 diagonal block of A
  };
  std::vector<Body> bodies;
  std::vector<TreeJoint> joints;  // roots first: a parent's joint precedes its children's
  Eigen::MatrixXd G;              // n × n_r
  Eigen::VectorXd g0;             // n
  int reduced_dofs() const { return static_cast<int>(G.cols()); }
};

// Builds the tree of p, or returns false with `why` (one line) when p is not a forest of free
// rigid bodies joined by independent implicit contacts: another constraint type, a column of A
// outside the bodies, a joint whose normals are dependent, a loop. eps: 003:16's regularization,
// relative to the mean diagonal of N_c M_c⁻¹ N_cᵀ.
bool BuildJointTree(const ContactProblem& p, double eps, JointTree& tree, std::string& why);

}  // namespace ncp
