// The dish module of 004 App. B: a 2-D profile of two segments OA and AB in the meridian
// half-plane (r, z), padded by a thickness d and revolved about z (004:45):
//   SDF_3d(p) = SDF_2d(√(p₁² + p₂²), p₃),  SDF_2d(q) = min(dist(q, OA), dist(q, AB)) − d.
// For a surface of revolution the distance in the meridian plane is the 3-D distance, so the
// field is exact. O lies on the axis. Bowl, plate and pot are parameter choices.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "problems/physics/sdf/sdf.h"

namespace ncp::physics {

struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3i> triangles;  // counter-clockwise seen from outside
};

class DishSdf final : public Sdf {
 public:
  // o_z: height of O on the axis; a = (r, z) of A; b = (r, z) of B; thickness d > 0. Throws
  // ncp::Error naming the field when the profile is degenerate.
  DishSdf(double o_z, const Eigen::Vector2d& a, const Eigen::Vector2d& b, double thickness);
  static DishSdf Bowl(double radius = 0.08, double height = 0.04, double thickness = 0.003);
  static DishSdf Plate(double radius = 0.11, double rim = 0.015, double thickness = 0.003);
  static DishSdf Pot(double radius = 0.1, double height = 0.1, double thickness = 0.004);
  // Two segments allow no neck: the bottle is a tall vessel whose wall leans in from the base
  // radius to a narrower mouth (a truncated cone), which is what makes it pour from one side.
  static DishSdf Bottle(double radius = 0.04, double height = 0.12, double mouth = 0.022,
                        double thickness = 0.004);

  double Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const override;
  double BoundingRadius() const override;
  // SDF_2d and its gradient in the meridian plane.
  double Eval2d(const Eigen::Vector2d& q, Eigen::Vector2d* grad) const;
  // Zero level set as a closed curve in the meridian half-plane (r ≥ 0), from the axis above
  // O around B and back to the axis below O, with points at most `step` apart.
  std::vector<Eigen::Vector2d> Boundary(double step) const;
  // The surface: Boundary(step) revolved in `segments` sectors; the axis points are shared.
  TriangleMesh Triangulate(double step, int segments) const;

  const Eigen::Vector2d& o() const { return o_; }
  const Eigen::Vector2d& a() const { return a_; }
  const Eigen::Vector2d& b() const { return b_; }
  double thickness() const { return d_; }
  // Volume of the solid (Pappus on the boundary), for masses.
  double Volume() const;

 private:
  Eigen::Vector2d o_, a_, b_;
  double d_;
};

}  // namespace ncp::physics
