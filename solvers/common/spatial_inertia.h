// Spatial inertia in the 10-number form of 004 App. A: mass m, first moment h = m c and the
// rotational inertia about the frame origin (6 numbers). A point-contact block J = R [I −[p]]
// contributes JᵀJ = [I −[p]; [p] −[p]²], a unit point mass at p, so the per-body matrix
// H_b = M_b + β Σ_i J_{i,b}ᵀ J_{i,b} of 004:41 stays in this form for contacts.
#pragma once

#include <Eigen/Core>

namespace ncp {

using Mat6 = Eigen::Matrix<double, 6, 6>;

struct SpatialInertia10 {
  double m = 0.0;
  Eigen::Vector3d h = Eigen::Vector3d::Zero();
  double ixx = 0, iyy = 0, izz = 0, ixy = 0, ixz = 0, iyz = 0;

  // Rigid body of mass `mass`, com `c` and inertia `Ic` about the com (all in the body frame).
  static SpatialInertia10 Body(double mass, const Eigen::Vector3d& c, const Eigen::Matrix3d& Ic) {
    SpatialInertia10 s;
    s.m = mass;
    s.h = mass * c;
    // I_o = I_c + m (|c|² I − c cᵀ)   (parallel axis theorem = I_c − m [c]²)
    const double c2 = c.squaredNorm();
    s.ixx = Ic(0, 0) + mass * (c2 - c.x() * c.x());
    s.iyy = Ic(1, 1) + mass * (c2 - c.y() * c.y());
    s.izz = Ic(2, 2) + mass * (c2 - c.z() * c.z());
    s.ixy = 0.5 * (Ic(0, 1) + Ic(1, 0)) - mass * c.x() * c.y();
    s.ixz = 0.5 * (Ic(0, 2) + Ic(2, 0)) - mass * c.x() * c.z();
    s.iyz = 0.5 * (Ic(1, 2) + Ic(2, 1)) - mass * c.y() * c.z();
    return s;
  }

  // Adds a point mass w at p (w |p|² I − w p pᵀ to the rotational part).
  void AddPointMass(double w, const Eigen::Vector3d& p) {
    m += w;
    h += w * p;
    ixx += w * (p.y() * p.y() + p.z() * p.z());
    iyy += w * (p.x() * p.x() + p.z() * p.z());
    izz += w * (p.x() * p.x() + p.y() * p.y());
    ixy -= w * p.x() * p.y();
    ixz -= w * p.x() * p.z();
    iyz -= w * p.y() * p.z();
  }

  // [m I, −[h]; [h], I_o]
  void ToMatrix(Mat6& M) const {
    M.setZero();
    M(0, 0) = M(1, 1) = M(2, 2) = m;
    const double hx = h.x(), hy = h.y(), hz = h.z();
    // −[h] in the upper-right block, [h] in the lower-left.
    M(0, 4) = hz, M(0, 5) = -hy, M(1, 3) = -hz, M(1, 5) = hx, M(2, 3) = hy, M(2, 4) = -hx;
    M(4, 0) = hz, M(5, 0) = -hy, M(3, 1) = -hz, M(5, 1) = hx, M(3, 2) = hy, M(4, 2) = -hx;
    M(3, 3) = ixx, M(4, 4) = iyy, M(5, 5) = izz;
    M(3, 4) = M(4, 3) = ixy, M(3, 5) = M(5, 3) = ixz, M(4, 5) = M(5, 4) = iyz;
  }
};

// A 3-row block R [I −[p]] with R orthonormal (a point contact on the body): returns true and p.
template <typename Derived>
bool PointContactBlock(const Eigen::MatrixBase<Derived>& blk, Eigen::Vector3d& p,
                       double tol = 1e-10) {
  if (blk.rows() != 3 || blk.cols() != 6) return false;
  const Eigen::Matrix3d L = blk.template leftCols<3>();
  const Eigen::Matrix3d P = L.transpose() * blk.template rightCols<3>();
  if ((L.transpose() * L - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > tol) return false;
  if ((P + P.transpose()).cwiseAbs().maxCoeff() > tol * (1.0 + P.cwiseAbs().maxCoeff()))
    return false;
  p = Eigen::Vector3d(-P(2, 1), -P(0, 2), -P(1, 0));  // P = −[p]
  return true;
}

}  // namespace ncp
