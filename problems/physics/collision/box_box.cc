#include "problems/physics/collision/box_box.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ncp::physics {
namespace {

// A convex polygon: a quad clipped by 4 planes has at most 8 vertices.
struct Polygon {
  std::array<Vec3, 8> v;
  int size = 0;
};

// Keeps the part of `in` where u·p ≤ limit.
void Clip(const Polygon& in, const Vec3& u, double limit, Polygon& out) {
  out.size = 0;
  for (int i = 0; i < in.size; ++i) {
    const Vec3& p = in.v[i];
    const Vec3& q = in.v[(i + 1) % in.size];
    const double fp = u.dot(p) - limit;
    const double fq = u.dot(q) - limit;
    if (fp <= 0.0 && out.size < 8) out.v[out.size++] = p;
    if ((fp <= 0.0) != (fq <= 0.0) && out.size < 8) {
      out.v[out.size++] = p + (q - p) * (fp / (fp - fq));
    }
  }
}

struct Candidate {
  Vec3 position;
  double gap;
};

// Up to 4 of `points`: the deepest, the farthest from it, and the two spanning the largest
// triangles on either side of that segment (about the normal n): the extremes of the patch.
int ReduceToFour(const std::array<Candidate, 8>& points, int count, const Vec3& n,
                 std::array<int, 4>& keep) {
  if (count <= 4) {
    for (int i = 0; i < count; ++i) keep[i] = i;
    return count;
  }
  int deepest = 0;
  for (int i = 1; i < count; ++i) {
    if (points[i].gap < points[deepest].gap) deepest = i;
  }
  const Vec3& p0 = points[deepest].position;
  int far = deepest;
  double far_d2 = -1.0;
  for (int i = 0; i < count; ++i) {
    const double d2 = (points[i].position - p0).squaredNorm();
    if (d2 > far_d2) far = i, far_d2 = d2;
  }
  const Vec3 edge = points[far].position - p0;
  int left = deepest, right = deepest;
  double left_area = 0.0, right_area = 0.0;
  for (int i = 0; i < count; ++i) {
    const double area = edge.cross(points[i].position - p0).dot(n);
    if (area > left_area) left = i, left_area = area;
    if (area < right_area) right = i, right_area = area;
  }
  int size = 0;
  for (int i = 0; i < count; ++i) {
    if (i == deepest || i == far || i == left || i == right) keep[size++] = i;
  }
  return size;
}

// Contacts of the face of box `ref` with outward normal sign·axis(face) against the most
// anti-parallel face of box `inc`. Normals point from ref to inc when flip is false.
void FaceContacts(const Vec3& half_ref, const Pose& ref, int face, double sign,
                  const Vec3& half_inc, const Pose& inc, double margin, bool flip,
                  std::vector<ContactPoint>& out) {
  const Mat3 rr = ref.linear();
  const Mat3 ri = inc.linear();
  const Vec3 n = sign * rr.col(face);
  const Vec3 face_center = ref.translation() + half_ref[face] * n;

  int j = 0;
  for (int k = 1; k < 3; ++k) {
    if (std::abs(n.dot(ri.col(k))) > std::abs(n.dot(ri.col(j)))) j = k;
  }
  const Vec3 inc_normal = n.dot(ri.col(j)) > 0.0 ? Vec3(-ri.col(j)) : Vec3(ri.col(j));
  const Vec3 inc_center = inc.translation() + half_inc[j] * inc_normal;
  const Vec3 e1 = half_inc[(j + 1) % 3] * ri.col((j + 1) % 3);
  const Vec3 e2 = half_inc[(j + 2) % 3] * ri.col((j + 2) % 3);
  Polygon poly, clipped;
  poly.size = 4;
  poly.v = {inc_center + e1 + e2, inc_center - e1 + e2, inc_center - e1 - e2, inc_center + e1 - e2};

  for (const int a : {(face + 1) % 3, (face + 2) % 3}) {
    const Vec3 u = rr.col(a);
    const double c = u.dot(ref.translation());
    Clip(poly, u, c + half_ref[a], clipped);
    Clip(clipped, -u, -c + half_ref[a], poly);
  }

  std::array<Candidate, 8> points;
  int count = 0;
  for (int i = 0; i < poly.size; ++i) {
    const double gap = n.dot(poly.v[i] - face_center);
    if (gap < margin) points[count++] = {poly.v[i] - 0.5 * gap * n, gap};
  }
  std::array<int, 4> keep;
  const int size = ReduceToFour(points, count, n, keep);
  for (int i = 0; i < size; ++i) {
    ContactPoint c;
    c.position = points[keep[i]].position;
    c.normal = flip ? Vec3(-n) : n;
    c.gap = points[keep[i]].gap;
    out.push_back(c);
  }
}

// Closest points of segments p1 + s·d1 (|s| ≤ e1) and p2 + t·d2 (|t| ≤ e2), d1 and d2 unit and not
// parallel. Returns false when a segment end is the closest point: the edges then do not cross
// along the axis and their points are not the contact.
bool ClosestOnSegments(const Vec3& p1, const Vec3& d1, double e1, const Vec3& p2, const Vec3& d2,
                       double e2, Vec3& q1, Vec3& q2) {
  const Vec3 r = p1 - p2;
  const double b = d1.dot(d2);
  const double c = d1.dot(r);
  const double f = d2.dot(r);
  const double s = (b * f - c) / (1.0 - b * b);
  const double t = b * s + f;
  q1 = p1 + s * d1;
  q2 = p2 + t * d2;
  return std::abs(s) <= e1 && std::abs(t) <= e2;
}

double Sign(double x) { return x < 0.0 ? -1.0 : 1.0; }

}  // namespace

bool BoxBoxContacts(const Vec3& half_a, const Pose& pose_a, const Vec3& half_b, const Pose& pose_b,
                    double margin, std::vector<ContactPoint>& out) {
  const Mat3 ra = pose_a.linear();
  const Mat3 rb = pose_b.linear();
  const Vec3 d = pose_b.translation() - pose_a.translation();
  const Mat3 abs_c = (ra.transpose() * rb).cwiseAbs();
  const Vec3 da = ra.transpose() * d;
  const Vec3 db = rb.transpose() * d;
  constexpr double kNone = -std::numeric_limits<double>::infinity();

  // Separation along each candidate axis: a lower bound of the distance, so any one at or beyond
  // the margin rules the pair out.
  double best_a = kNone, best_b = kNone, best_edge = kNone;
  int face_a = 0, face_b = 0, edge_i = 0, edge_j = 0;
  Vec3 edge_axis = Vec3::UnitZ();
  for (int i = 0; i < 3; ++i) {
    const double s = std::abs(da[i]) - half_a[i] - abs_c.row(i).dot(half_b);
    if (s >= margin) return true;
    if (s > best_a) best_a = s, face_a = i;
  }
  for (int j = 0; j < 3; ++j) {
    const double s = std::abs(db[j]) - half_b[j] - abs_c.col(j).dot(half_a);
    if (s >= margin) return true;
    if (s > best_b) best_b = s, face_b = j;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 axis = ra.col(i).cross(rb.col(j));
      const double norm = axis.norm();
      if (norm < 1e-6) continue;  // parallel edges: the face axes cover this direction
      axis /= norm;
      const double s = std::abs(axis.dot(d)) - (ra.transpose() * axis).cwiseAbs().dot(half_a) -
                       (rb.transpose() * axis).cwiseAbs().dot(half_b);
      if (s >= margin) return true;
      if (s > best_edge) best_edge = s, edge_i = i, edge_j = j, edge_axis = axis;
    }
  }

  // Prefer a face of A, then a face of B, then an edge pair: ties (a box resting flat) must not
  // switch features from one call to the next on rounding, and an edge pair must beat the faces by
  // 5% since it gives one point where a face gives a manifold.
  const double scale = std::max(half_a.maxCoeff(), half_b.maxCoeff());
  const double best_face = std::max(best_a, best_b);
  const size_t first = out.size();
  if (best_edge > best_face + 0.05 * std::abs(best_face) + 1e-5 * scale) {
    const Vec3 axis = Sign(edge_axis.dot(d)) * edge_axis;  // from A towards B
    Vec3 pa = pose_a.translation();
    Vec3 pb = pose_b.translation();
    for (int k = 0; k < 3; ++k) {
      if (k != edge_i) pa += half_a[k] * Sign(axis.dot(ra.col(k))) * ra.col(k);
      if (k != edge_j) pb -= half_b[k] * Sign(axis.dot(rb.col(k))) * rb.col(k);
    }
    Vec3 qa, qb;
    if (!ClosestOnSegments(pa, ra.col(edge_i), half_a[edge_i], pb, rb.col(edge_j), half_b[edge_j],
                           qa, qb)) {
      return false;
    }
    const double gap = axis.dot(qb - qa);
    if (gap >= margin) return true;
    ContactPoint c;
    c.position = 0.5 * (qa + qb);
    c.normal = axis;
    c.gap = gap;
    out.push_back(c);
    return true;
  }
  if (best_b > best_a + 1e-9 * scale) {
    FaceContacts(half_b, pose_b, face_b, -Sign(db[face_b]), half_a, pose_a, margin, true, out);
  } else {
    FaceContacts(half_a, pose_a, face_a, Sign(da[face_a]), half_b, pose_b, margin, false, out);
  }
  if (out.size() == first) return false;
  // Apart, the distance lies between the largest axis separation (a lower bound) and the smallest
  // face gap (an upper bound). When these differ, the nearest features are not the clipped face
  // (an edge or an overhanging corner): the caller's exact distance replaces the manifold.
  const double separation = std::max(best_face, best_edge);
  if (separation > 0.0) {
    double gap = out[first].gap;
    for (size_t k = first + 1; k < out.size(); ++k) gap = std::min(gap, out[k].gap);
    if (gap > separation + 1e-7 * scale) {
      out.resize(first);
      return false;
    }
  }
  return true;
}

}  // namespace ncp::physics
