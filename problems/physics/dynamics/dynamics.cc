#include "problems/physics/dynamics/dynamics.h"

#include "problems/physics/dynamics/spatial.h"

namespace ncp::physics {

void ForwardKinematics(const ArticulatedModel& m, const VectorXd& q, Kinematics& k) {
  const std::size_t n = m.links.size();
  k.local.resize(n);
  k.world.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Link& l = m.links[i];
    Pose X = l.parent_to_joint;
    switch (l.joint) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
        X = X * Eigen::AngleAxisd(q[l.q_index], l.axis);
        break;
      case JointType::kPrismatic:
        X = X * Eigen::Translation3d(q[l.q_index] * l.axis);
        break;
      case JointType::kFloating: {
        const Eigen::Quaterniond quat(q[l.q_index + 3], q[l.q_index + 4], q[l.q_index + 5],
                                      q[l.q_index + 6]);
        X = Pose::Identity();
        X.linear() = quat.normalized().toRotationMatrix();
        X.translation() = q.segment<3>(l.q_index);
        break;
      }
    }
    k.local[i] = X;
    k.world[i] = l.parent < 0 ? X : k.world[l.parent] * X;
  }
}

Eigen::Matrix<double, 6, Eigen::Dynamic> MotionSubspace(const Link& l) {
  Eigen::Matrix<double, 6, Eigen::Dynamic> S(6, ArticulatedModel::Nv(l.joint));
  switch (l.joint) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
      S << Vec3::Zero(), l.axis;
      break;
    case JointType::kPrismatic:
      S << l.axis, Vec3::Zero();
      break;
    case JointType::kFloating:
      S.setIdentity();
      break;
  }
  return S;
}

void BodyTwists(const ArticulatedModel& m, const Kinematics& k, const VectorXd& v,
                std::vector<Vec6>& twist) {
  twist.resize(m.links.size());
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    const Link& l = m.links[i];
    Vec6 V = l.parent < 0 ? Vec6::Zero() : Vec6(TwistTransform(k.local[i]) * twist[l.parent]);
    const int nv = ArticulatedModel::Nv(l.joint);
    if (nv) V += MotionSubspace(l) * v.segment(l.v_index, nv);
    twist[i] = V;
  }
}

void BodyJacobian(const ArticulatedModel& m, const Kinematics& k, int b, MatrixXd& J) {
  J.setZero(6, m.nv);
  const Pose Tb = k.world[b];
  for (int j = b; j >= 0; j = m.links[j].parent) {
    const Link& l = m.links[j];
    const int nv = ArticulatedModel::Nv(l.joint);
    if (!nv) continue;
    // Joint j's subspace moved from link j's frame to link b's frame.
    J.middleCols(l.v_index, nv) = TwistTransform(k.world[j].inverse() * Tb) * MotionSubspace(l);
  }
}

MatrixXd MassMatrix(const ArticulatedModel& m, const Kinematics& k) {
  const std::size_t n = m.links.size();
  std::vector<Mat6> Ic(n), X(n);
  for (std::size_t i = 0; i < n; ++i) {
    Ic[i] = SpatialInertia(m.links[i]);
    X[i] = TwistTransform(k.local[i]);
  }
  for (std::size_t i = n; i-- > 0;)
    if (m.links[i].parent >= 0) Ic[m.links[i].parent] += X[i].transpose() * Ic[i] * X[i];
  MatrixXd H = MatrixXd::Zero(m.nv, m.nv);
  for (std::size_t i = 0; i < n; ++i) {
    const Link& li = m.links[i];
    const int ni = ArticulatedModel::Nv(li.joint);
    if (!ni) continue;
    Eigen::Matrix<double, 6, Eigen::Dynamic> F = Ic[i] * MotionSubspace(li);
    H.block(li.v_index, li.v_index, ni, ni) = MotionSubspace(li).transpose() * F;
    // Walk up the tree: only ancestors couple with joint i (branch-induced sparsity).
    for (int j = static_cast<int>(i); m.links[j].parent >= 0;) {
      F = X[j].transpose() * F;
      j = m.links[j].parent;
      const Link& lj = m.links[j];
      const int nj = ArticulatedModel::Nv(lj.joint);
      if (!nj) continue;
      H.block(li.v_index, lj.v_index, ni, nj) = F.transpose() * MotionSubspace(lj);
      H.block(lj.v_index, li.v_index, nj, ni) = H.block(li.v_index, lj.v_index, ni, nj).transpose();
    }
  }
  return H;
}

VectorXd InverseDynamics(const ArticulatedModel& m, const Kinematics& k, const VectorXd& v,
                         const VectorXd& a, const Vec3& gravity) {
  const std::size_t n = m.links.size();
  std::vector<Vec6> V(n), A(n), F(n);
  std::vector<Mat6> X(n);
  Vec6 a_world;
  a_world << -gravity, Vec3::Zero();  // gravity as a fictitious upward base acceleration
  for (std::size_t i = 0; i < n; ++i) {
    const Link& l = m.links[i];
    X[i] = TwistTransform(k.local[i]);
    const int nv = ArticulatedModel::Nv(l.joint);
    const Vec6 Vp = l.parent < 0 ? Vec6::Zero() : V[l.parent];
    const Vec6 Ap = l.parent < 0 ? a_world : A[l.parent];
    Vec6 vj = Vec6::Zero(), aj = Vec6::Zero();
    if (nv) {
      const auto S = MotionSubspace(l);
      vj = S * v.segment(l.v_index, nv);
      aj = S * a.segment(l.v_index, nv);
    }
    V[i] = X[i] * Vp + vj;
    A[i] = X[i] * Ap + aj + CrossMotion(V[i], vj);
    const Mat6 I = SpatialInertia(l);
    F[i] = I * A[i] + CrossForce(V[i], I * V[i]);
  }
  VectorXd tau = VectorXd::Zero(m.nv);
  for (std::size_t i = n; i-- > 0;) {
    const Link& l = m.links[i];
    const int nv = ArticulatedModel::Nv(l.joint);
    if (nv) tau.segment(l.v_index, nv) = MotionSubspace(l).transpose() * F[i];
    if (l.parent >= 0) F[l.parent] += X[i].transpose() * F[i];
  }
  return tau;
}

void IntegrateConfiguration(const ArticulatedModel& m, VectorXd& q, const VectorXd& v, double dt) {
  for (const Link& l : m.links) {
    switch (l.joint) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
      case JointType::kPrismatic:
        q[l.q_index] += dt * v[l.v_index];
        break;
      case JointType::kFloating: {
        Eigen::Quaterniond quat(q[l.q_index + 3], q[l.q_index + 4], q[l.q_index + 5],
                                q[l.q_index + 6]);
        const Mat3 R = quat.normalized().toRotationMatrix();
        q.segment<3>(l.q_index) += dt * (R * v.segment<3>(l.v_index));
        quat = Eigen::Quaterniond(R * ExpSO3(dt * v.segment<3>(l.v_index + 3))).normalized();
        q[l.q_index + 3] = quat.w(), q[l.q_index + 4] = quat.x(), q[l.q_index + 5] = quat.y(),
                      q[l.q_index + 6] = quat.z();
        break;
      }
    }
  }
}

double KineticEnergy(const ArticulatedModel& m, const Kinematics& k, const VectorXd& v) {
  std::vector<Vec6> V;
  BodyTwists(m, k, v, V);
  double e = 0.0;
  for (std::size_t i = 0; i < m.links.size(); ++i)
    e += 0.5 * V[i].dot(SpatialInertia(m.links[i]) * V[i]);
  return e;
}

}  // namespace ncp::physics
