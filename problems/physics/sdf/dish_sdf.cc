#include "problems/physics/sdf/dish_sdf.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp::physics {
namespace {

using V2 = Eigen::Vector2d;

// Distance from q to the segment [p0, p1] and the closest point.
double SegmentDistance(const V2& q, const V2& p0, const V2& p1, V2& closest) {
  const V2 e = p1 - p0;
  const double t = std::clamp((q - p0).dot(e) / e.squaredNorm(), 0.0, 1.0);
  closest = p0 + t * e;
  return (q - closest).norm();
}

V2 LeftNormal(const V2& u) { return V2(-u.y(), u.x()); }

// Points of the arc of radius d about c from direction angle a0 to a1 (radians, a1 may be below
// a0), at most `step` apart, end points included.
void Arc(const V2& c, double d, double a0, double a1, double step, std::vector<V2>& out) {
  const int n = std::max(1, static_cast<int>(std::ceil(std::abs(a1 - a0) * d / step)));
  for (int k = 0; k <= n; ++k) {
    const double a = a0 + (a1 - a0) * k / n;
    out.push_back(c + d * V2(std::cos(a), std::sin(a)));
  }
}

void Line(const V2& p0, const V2& p1, double step, std::vector<V2>& out) {
  const int n = std::max(1, static_cast<int>(std::ceil((p1 - p0).norm() / step)));
  for (int k = 0; k <= n; ++k) out.push_back(p0 + (p1 - p0) * (static_cast<double>(k) / n));
}

double Angle(const V2& v) { return std::atan2(v.y(), v.x()); }

// The signed angle from u to v in (−π, π].
double Turn(const V2& u, const V2& v) {
  return std::atan2(u.x() * v.y() - u.y() * v.x(), u.dot(v));
}

}  // namespace

DishSdf::DishSdf(double o_z, const Eigen::Vector2d& a, const Eigen::Vector2d& b, double thickness)
    : o_(0.0, o_z), a_(a), b_(b), d_(thickness) {
  if (!(thickness > 0) || !std::isfinite(thickness))
    throw Error(fmt::format("dish.thickness = {}: must be > 0", thickness));
  if (!(a.x() > 0)) throw Error(fmt::format("dish.A.r = {}: must be > 0 (A off the axis)", a.x()));
  if (!(b.x() > 0)) throw Error(fmt::format("dish.B.r = {}: must be > 0", b.x()));
  if (!((b - a).norm() > 0)) throw Error("dish.B: must differ from A");
  if (!o_.allFinite() || !a.allFinite() || !b.allFinite())
    throw Error("dish: non-finite profile point");
}

DishSdf DishSdf::Bowl(double radius, double height, double thickness) {
  return DishSdf(0.0, {0.45 * radius, 0.0}, {radius, height}, thickness);
}
DishSdf DishSdf::Plate(double radius, double rim, double thickness) {
  return DishSdf(0.0, {0.7 * radius, 0.0}, {radius, rim}, thickness);
}
DishSdf DishSdf::Pot(double radius, double height, double thickness) {
  return DishSdf(0.0, {radius, 0.0}, {radius, height}, thickness);
}

DishSdf DishSdf::Bottle(double radius, double height, double mouth, double thickness) {
  return DishSdf(0.0, {radius, 0.0}, {mouth, height}, thickness);
}

double DishSdf::Eval2d(const Eigen::Vector2d& q, Eigen::Vector2d* grad) const {
  V2 c1, c2;
  const double d1 = SegmentDistance(q, o_, a_, c1), d2 = SegmentDistance(q, a_, b_, c2);
  const double dist = std::min(d1, d2);
  if (grad) {
    const V2 diff = q - (d1 <= d2 ? c1 : c2);
    // On the skeleton itself the field has no gradient; any unit vector is a subgradient.
    *grad = dist > 0 ? V2(diff / dist) : V2(0.0, 1.0);
  }
  return dist - d_;
}

double DishSdf::Eval(const Eigen::Vector3d& p, Eigen::Vector3d* grad) const {
  const double r = std::hypot(p.x(), p.y());
  V2 g2;
  const double phi = Eval2d(V2(r, p.z()), grad ? &g2 : nullptr);
  if (grad) {
    // ∂r/∂p = (p₁, p₂, 0)/r; on the axis the radial part of ∇φ vanishes by symmetry.
    if (r > 0)
      *grad = Eigen::Vector3d(g2.x() * p.x() / r, g2.x() * p.y() / r, g2.y());
    else
      *grad = Eigen::Vector3d(0.0, 0.0, g2.y() >= 0 ? 1.0 : -1.0);
  }
  return phi;
}

double DishSdf::BoundingRadius() const {
  // Every point of the segments O–A and A–B is no farther from the origin than their ends.
  return std::max({o_.norm(), a_.norm(), b_.norm()}) + d_;
}

std::vector<Eigen::Vector2d> DishSdf::Boundary(double step) const {
  if (!(step > 0)) throw Error(fmt::format("dish.step = {}: must be > 0", step));
  const V2 u1 = (a_ - o_).normalized(), u2 = (b_ - a_).normalized();
  const V2 n1 = LeftNormal(u1), n2 = LeftNormal(u2);
  const double la = (a_ - o_).norm(), lb = (b_ - a_).norm();
  // The offset curve of O→A→B walked once around: left side out to B, the cap at B, right side
  // back to O, the cap at O. Pieces are clipped to the true zero set (corner overlaps drop out).
  std::vector<V2> walk;
  Line(o_ + d_ * n1 - 2.0 * d_ * u1, a_ + d_ * n1, step, walk);
  const double turn = Turn(u1, u2);
  // A left turn at A makes the right side convex (an arc there) and the left side a corner.
  if (turn < 0) Arc(a_, d_, Angle(n1), Angle(n1) + turn, step, walk);
  Line(a_ + d_ * n2, b_ + d_ * n2, step, walk);
  Arc(b_, d_, Angle(n2), Angle(n2) - M_PI, step, walk);
  Line(b_ - d_ * n2, a_ - d_ * n2, step, walk);
  if (turn > 0) Arc(a_, d_, Angle(-n2), Angle(-n2) - turn, step, walk);
  Line(a_ - d_ * n1, o_ - d_ * n1, step, walk);
  Arc(o_, d_, Angle(-n1), Angle(-n1) - M_PI, step, walk);
  const double tol = 1e-9 * (1.0 + la + lb);
  std::vector<V2> kept;
  for (const V2& q : walk) {
    if (q.x() <= 0.0 || std::abs(Eval2d(q, nullptr)) > tol) continue;
    if (!kept.empty() && (q - kept.back()).norm() < 1e-3 * step) continue;  // piece joints
    kept.push_back(q);
  }
  // The two axis points: where the zero set meets r = 0 above and below O (bisection).
  auto axis = [&](double dir) {
    double in = o_.y(), out = o_.y() + dir * (la + lb + 4.0 * d_);
    for (int k = 0; k < 200; ++k) {
      const double mid = 0.5 * (in + out);
      (Eval2d(V2(0.0, mid), nullptr) < 0 ? in : out) = mid;
    }
    return V2(0.0, 0.5 * (in + out));
  };
  std::vector<V2> out{axis(n1.y() >= 0 ? 1.0 : -1.0)};
  out.insert(out.end(), kept.begin(), kept.end());
  out.push_back(axis(n1.y() >= 0 ? -1.0 : 1.0));
  return out;
}

TriangleMesh DishSdf::Triangulate(double step, int segments) const {
  if (segments < 3) throw Error(fmt::format("dish.segments = {}: must be >= 3", segments));
  const std::vector<V2> curve = Boundary(step);
  const int rings = static_cast<int>(curve.size()) - 2;  // interior points; the ends are poles
  TriangleMesh m;
  m.vertices.push_back({0.0, 0.0, curve.front().y()});
  for (int i = 1; i <= rings; ++i)
    for (int s = 0; s < segments; ++s) {
      const double a = 2.0 * M_PI * s / segments;
      m.vertices.push_back({curve[i].x() * std::cos(a), curve[i].x() * std::sin(a), curve[i].y()});
    }
  m.vertices.push_back({0.0, 0.0, curve.back().y()});
  const int top = 0, bottom = static_cast<int>(m.vertices.size()) - 1;
  auto v = [&](int ring, int s) { return 1 + ring * segments + (s % segments); };
  for (int s = 0; s < segments; ++s) m.triangles.push_back({top, v(0, s + 1), v(0, s)});
  for (int i = 0; i + 1 < rings; ++i)
    for (int s = 0; s < segments; ++s) {
      m.triangles.push_back({v(i, s), v(i, s + 1), v(i + 1, s + 1)});
      m.triangles.push_back({v(i, s), v(i + 1, s + 1), v(i + 1, s)});
    }
  for (int s = 0; s < segments; ++s)
    m.triangles.push_back({bottom, v(rings - 1, s), v(rings - 1, s + 1)});
  // Orient outward: compare one face normal with the field's gradient at its centroid.
  const Eigen::Vector3i& t = m.triangles[segments];
  const Eigen::Vector3d p0 = m.vertices[t[0]], p1 = m.vertices[t[1]], p2 = m.vertices[t[2]];
  Eigen::Vector3d g;
  Eval((p0 + p1 + p2) / 3.0, &g);
  if ((p1 - p0).cross(p2 - p0).dot(g) < 0)
    for (Eigen::Vector3i& tri : m.triangles) std::swap(tri[1], tri[2]);
  return m;
}

double DishSdf::Volume() const {
  // Pappus–Guldin: V = 2π ∫∫ r dr dz = 2π |∮ r²/2 dz| over the closed meridian curve (the axis
  // closes it and contributes nothing).
  const std::vector<V2> c = Boundary(d_ / 50.0);
  double s = 0.0;
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    const double rm = 0.5 * (c[i].x() + c[i + 1].x());
    s += 0.5 * rm * rm * (c[i + 1].y() - c[i].y());
  }
  return 2.0 * M_PI * std::abs(s);
}

}  // namespace ncp::physics
