// Collision geometry shared by the dynamics and the collision layer: primitive shapes attached to
// bodies (or to the world), contact points and contact frames.
#pragma once

#include <Eigen/Geometry>
#include <memory>
#include <vector>

namespace ncp::physics {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Pose = Eigen::Isometry3d;

class Sdf;

enum class ShapeType {
  kPlane,     // the half-space z ≤ 0 of its local frame (surface z = 0, outward normal +z)
  kSphere,    // radius
  kBox,       // half_extents
  kCapsule,   // radius, half_length along local z (segment from −h to +h)
  kCylinder,  // radius, half_length along local z
  // A signed distance field (sdf, in its local frame), e.g. the dish module of 004 App. B. Only
  // as a world or kinematic geom, and it touches spheres only: their contact is analytic
  // (gap = φ(center) − radius, normal = ∇φ), so no mesh or Frank–Wolfe search is needed.
  kSdf,
};

struct Shape {
  ShapeType type = ShapeType::kSphere;
  double radius = 0.0;
  double half_length = 0.0;
  Vec3 half_extents = Vec3::Zero();
  std::shared_ptr<const Sdf> sdf;  // kSdf only
};

// A shape attached to a body (body ≥ 0) or fixed in the world (body = −1).
struct Geom {
  int body = -1;
  Shape shape;
  Pose local = Pose::Identity();  // shape frame in the body frame (world frame for body = −1)
  double mu = 0.5;                // friction; a pair uses the geometric mean
  // Anisotropic (ellipsoidal) friction, 002 eq. (12): ≥ 0 is the coefficient along the shape
  // frame's y axis as projected into the contact plane, `mu` then along its x axis; a pair's
  // coefficient on each axis is the geometric mean of the two geoms' (an isotropic geom's `mu`
  // on both). < 0: isotropic.
  double mu_y = -1.0;
  // Geoms that share a non-zero group never collide (e.g. adjacent links of one robot).
  int group = 0;
  // The contact force acts at the body frame's origin instead of the contact point: a rod
  // link's node, as in a rod model whose contacts act on nodal positions (no lever arm).
  bool contact_at_origin = false;
};

// One contact point between geoms a and b, in world coordinates.
struct ContactPoint {
  int geom_a = -1, geom_b = -1;
  Vec3 position = Vec3::Zero();  // midway between the two surfaces
  Vec3 normal = Vec3::UnitZ();   // unit, pointing from a towards b
  double gap = 0.0;              // signed distance along normal: < 0 when penetrating
  // ≥ 0: a self-contact of that spline body (MultibodySystem::AddSplineBody; geoms −1), whose
  // row is frictionless (unilateral) rather than a contact constraint.
  int spline_body = -1;
};

// Contact frame as rows [n; t1; t2] (right-handed, deterministic in n).
Mat3 ContactFrame(const Vec3& normal);

// The contact rows and the cone's μ for a pair with an ellipsoidal friction cone (002 eq. (12)):
// ‖(λ_1/μ_x, λ_2/μ_y)‖ ≤ λ_n, the tangents t1 along `axis` projected into the contact plane and
// t2 = n × t1. The ellipse is the disk of radius μ_x in the coordinates λ̃_2 = (μ_x/μ_y) λ_2: the
// rows [n; t1; (μ_y/μ_x) t2] with μ = μ_x give every solver's isotropic cone that exact problem
// (the maximal-dissipation solution of 002 Prop. 6 included: λ̃ maximizes −λ̃·ũ over the disk
// exactly when λ maximizes −λ·u over the ellipse). The frame of `normal` when `axis` is along it.
struct EllipticFrame {
  Mat3 rows;
  double mu = 0.0;
};
EllipticFrame EllipticContactFrame(const Vec3& normal, const Vec3& axis, double mu_x, double mu_y);

}  // namespace ncp::physics
