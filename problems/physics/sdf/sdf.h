// Signed distance fields: value and gradient at a point of the field's frame. Negative inside.
#pragma once

#include <Eigen/Geometry>
#include <limits>

namespace ncp::physics {

class Sdf {
 public:
  virtual ~Sdf() = default;
  // φ(p); when grad is not null, ∇φ(p) (unit length almost everywhere for an exact SDF).
  virtual double Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const = 0;
  // Radius of a ball about the frame's origin that holds the solid (φ ≤ 0); infinite when the
  // solid is unbounded. Collision culling uses it.
  virtual double BoundingRadius() const { return std::numeric_limits<double>::infinity(); }
};

// The half-space z ≤ 0 (surface z = 0).
class PlaneSdf final : public Sdf {
 public:
  double Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const override {
    if (grad) *grad = Eigen::Vector3d::UnitZ();
    return p.z();
  }
};

// A ball of radius r about the origin.
class SphereSdf final : public Sdf {
 public:
  explicit SphereSdf(double radius) : radius_(radius) {}
  double Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const override {
    const double n = p.norm();
    if (grad) *grad = n > 0 ? Eigen::Vector3d(p / n) : Eigen::Vector3d::UnitZ();
    return n - radius_;
  }
  double BoundingRadius() const override { return radius_; }

 private:
  double radius_;
};

}  // namespace ncp::physics
