// An articulated tree of rigid links (a free rigid body is a one-link tree with a floating
// joint). Conventions (004 App. A): a link's velocity is its twist [v; ω] expressed in the link
// frame, so the velocity of a point p (link frame) is v + ω × p = [I −[p]] [v; ω].
//   q layout per joint: floating [p(3), quaternion w,x,y,z (4)], revolute/prismatic 1, fixed 0
//   v layout per joint: floating [v(3), ω(3)] (link frame), revolute/prismatic 1, fixed 0
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "problems/physics/geometry.h"

namespace ncp::physics {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

enum class JointType { kFixed, kRevolute, kPrismatic, kFloating };

struct Link {
  std::string name;
  int parent = -1;  // links are ordered: parent < child; −1: the world
  JointType joint = JointType::kFloating;
  Pose parent_to_joint = Pose::Identity();  // joint frame (= this link's frame at q = 0) in parent
  Vec3 axis = Vec3::UnitZ();                // joint axis in the link frame (unit)
  double mass = 0.0;
  Vec3 com = Vec3::Zero();             // in the link frame
  Mat3 inertia = Mat3::Zero();         // about the com, link-frame axes
  double lower = -1e30, upper = 1e30;  // joint limits (revolute/prismatic)
  std::vector<Geom> geoms;             // geom.local in the link frame (geom.body is ignored)
  int q_index = 0, v_index = 0;        // filled by Finalize()
};

struct ArticulatedModel {
  std::string name;
  std::vector<Link> links;
  int nq = 0, nv = 0;
  // Computes q/v indices and checks the tree order; throws ncp::Error on a bad model.
  void Finalize();
  static int Nq(JointType t);
  static int Nv(JointType t);
  Eigen::VectorXd NeutralConfiguration() const;  // zero joints, identity quaternions
};

// Spatial inertia of a link about its frame origin in [lin; ang] order:
// [m I, −m[c]; m[c], I_c − m[c][c]].
Mat6 SpatialInertia(const Link& l);

// A free rigid body as a one-link model (floating joint), com at the link origin.
ArticulatedModel MakeFreeBody(const std::string& name, double mass, const Mat3& inertia,
                              std::vector<Geom> geoms);

}  // namespace ncp::physics
