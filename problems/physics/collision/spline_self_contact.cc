#include "problems/physics/collision/spline_self_contact.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace ncp::physics {
namespace {

constexpr double kBoundEps = 1e-12;  // a parameter this close to 0 or 1 sits on the bound

int Segments(const SplineTube& t) { return static_cast<int>(t.nodes.size()) - 1; }

Vec3 Tangent(const SplineTube& t, int i) {
  const int m = Segments(t);
  if (i == 0) return t.nodes[1] - t.nodes[0];
  if (i == m) return t.nodes[m] - t.nodes[m - 1];
  return 0.5 * (t.nodes[i + 1] - t.nodes[i - 1]);
}

double Radius(const SplineTube& t, int seg, double u) {
  return (1.0 - u) * t.radius[seg] + u * t.radius[seg + 1];
}

// A sphere holding segment `seg`: the hull of its Bézier control points holds the curve.
struct Bound {
  Vec3 center;
  double reach;  // sphere radius + the tube's largest radius on the segment
};
Bound SegmentBound(const SplineTube& t, int seg) {
  const Vec3 p0 = t.nodes[seg], p3 = t.nodes[seg + 1];
  const Vec3 p1 = p0 + Tangent(t, seg) / 3.0, p2 = p3 - Tangent(t, seg + 1) / 3.0;
  const Vec3 c = 0.5 * (p0 + p3);
  double r = 0.0;
  for (const Vec3& p : {p0, p1, p2, p3}) r = std::max(r, (p - c).norm());
  return {c, r + std::max(t.radius[seg], t.radius[seg + 1])};
}

// Parameters (u, w) of the closest points of the chords [a0, a1] and [b0, b1].
void ChordClosest(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1, double& u,
                  double& w) {
  const Vec3 da = a1 - a0, db = b1 - b0, r = a0 - b0;
  const double aa = da.squaredNorm(), bb = db.squaredNorm(), ab = da.dot(db);
  const double ar = da.dot(r), br = db.dot(r);
  const double den = aa * bb - ab * ab;
  u = den > 1e-14 * aa * bb ? std::clamp((ab * br - bb * ar) / den, 0.0, 1.0) : 0.0;
  w = bb > 0 ? std::clamp((ab * u + br) / bb, 0.0, 1.0) : 0.0;
  u = aa > 0 ? std::clamp((ab * w - ar) / aa, 0.0, 1.0) : 0.0;
}

struct Search {
  double u, w;
  double gu, gw;  // gradient of ½‖c_a − c_b‖² at (u, w)
  int iters = 0;
  bool converged = false;
};

// The surface gap of points u, w of segments a, b: ‖c_a − c_b‖ − r_a(u) − r_b(w).
double Gap(const SplineTube& t, int a, int b, double u, double w) {
  return (EvaluateSpline(t, a, u).c - EvaluateSpline(t, b, w).c).norm() - Radius(t, a, u) -
         Radius(t, b, w);
}

bool Free(double x, double g) { return !((x <= 0.0 && g > 0.0) || (x >= 1.0 && g < 0.0)); }

// Projected Newton on the gap over the unit square from (u0, w0) with a backtracking line search;
// the Hessian is shifted where it is not positive definite (the gap is not convex far from its
// minimum). The radius is linear along a segment, so only the distance has curvature.
Search Newton(const SplineTube& t, int a, int b, double u0, double w0) {
  Search s{};
  s.u = u0, s.w = w0;
  const double len = std::sqrt(std::max((t.nodes[a + 1] - t.nodes[a]).squaredNorm(),
                                        (t.nodes[b + 1] - t.nodes[b]).squaredNorm()));
  const double tol = 1e-10 * len;  // on the gradient [m]: δu ≈ 1e-10
  const double ra = t.radius[a + 1] - t.radius[a], rb = t.radius[b + 1] - t.radius[b];
  for (s.iters = 0; s.iters <= t.max_newton_iters; ++s.iters) {
    const SplinePoint pa = EvaluateSpline(t, a, s.u), pb = EvaluateSpline(t, b, s.w);
    const Vec3 d = pa.c - pb.c;
    const double n = std::max(d.norm(), 1e-9 * len);  // the distance is not smooth at 0
    const double da = d.dot(pa.dc) / n, db = d.dot(pb.dc) / n;
    s.gu = da - ra, s.gw = -db - rb;
    const bool fu = Free(s.u, s.gu), fw = Free(s.w, s.gw);
    if (std::hypot(fu ? s.gu : 0.0, fw ? s.gw : 0.0) <= tol) {
      s.converged = true;
      break;
    }
    if (s.iters == t.max_newton_iters) break;
    double huu = (pa.dc.squaredNorm() + d.dot(pa.ddc)) / n - da * da / n;
    double hww = (pb.dc.squaredNorm() - d.dot(pb.ddc)) / n - db * db / n;
    double huw = -pa.dc.dot(pb.dc) / n + da * db / n;
    if (!fu) huw = 0.0, huu = 1.0;
    if (!fw) huw = 0.0, hww = 1.0;
    // The smallest eigenvalue of [[huu, huw], [huw, hww]], shifted to at least 1e-6 len² / n.
    const double mean = 0.5 * (huu + hww), rad = std::hypot(0.5 * (huu - hww), huw);
    const double shift = std::max(0.0, 1e-6 * len * len / n - (mean - rad));
    huu += shift, hww += shift;
    const double det = huu * hww - huw * huw;
    const double gu = fu ? s.gu : 0.0, gw = fw ? s.gw : 0.0;
    const double du = -(hww * gu - huw * gw) / det, dw = -(huu * gw - huw * gu) / det;
    const double f0 = Gap(t, a, b, s.u, s.w);
    double alpha = 1.0, u = s.u, w = s.w;
    bool descent = false;
    for (int k = 0; k < 40 && !descent; ++k, alpha *= 0.5) {
      u = std::clamp(s.u + alpha * du, 0.0, 1.0), w = std::clamp(s.w + alpha * dw, 0.0, 1.0);
      descent = Gap(t, a, b, u, w) < f0;
    }
    // A descent direction that no step of 2⁻⁴⁰ or more shortens: the minimum, to rounding.
    if (!descent || (u == s.u && w == s.w)) {
      s.converged = true;
      break;
    }
    s.u = u, s.w = w;
  }
  return s;
}

// Two near-parallel pieces of a tube (coils lying side by side) make a long flat valley of the
// gap with shallow local minima along it: Newton starts from the chords' closest points and from
// the best point of a coarse grid, and the smaller gap is kept.
Search ClosestPoints(const SplineTube& t, int a, int b) {
  constexpr int kSeedGrid = 8;
  double u0, w0;
  ChordClosest(t.nodes[a], t.nodes[a + 1], t.nodes[b], t.nodes[b + 1], u0, w0);
  double gu = 0, gw = 0, best = INFINITY;
  for (int i = 0; i <= kSeedGrid; ++i)
    for (int j = 0; j <= kSeedGrid; ++j) {
      const double u = static_cast<double>(i) / kSeedGrid, w = static_cast<double>(j) / kSeedGrid;
      if (const double f = Gap(t, a, b, u, w); f < best) best = f, gu = u, gw = w;
    }
  Search s = Newton(t, a, b, u0, w0);
  const Search g = Newton(t, a, b, gu, gw);
  const int iters = s.iters + g.iters;
  if (Gap(t, a, b, g.u, g.w) < Gap(t, a, b, s.u, s.w)) s = g;
  s.iters = iters;
  return s;
}

// The gap's slope along segment `seg` at its end u = 1 towards the point `other` [m].
double EndSlope(const SplineTube& t, int seg, const Vec3& other) {
  const SplinePoint p = EvaluateSpline(t, seg, 1.0);
  const Vec3 d = p.c - other;
  const double n = d.norm();
  return (n > 0 ? d.dot(p.dc) / n : 0.0) - (t.radius[seg + 1] - t.radius[seg]);
}

// A minimum on a segment's end where the tube goes on is the neighbouring pair's to report: at
// u = 1 always (the next segment has it at u = 0), at u = 0 only when the gap still falls going
// back into the previous segment (its slope there > 0). That slope is the previous segment's own:
// where the centerlines cross on a node, or the radius's slope changes there, the two one-sided
// slopes differ, and the node is the minimum although neither is zero.
bool OwnedByPair(const SplineTube& t, const Search& s, int a, int b) {
  const int m = static_cast<int>(t.nodes.size()) - 1;
  const double tol = 1e-8 * (t.nodes[a + 1] - t.nodes[a]).norm();
  auto owned = [&](double x, int seg, int other_seg, double other_x) {
    if (x >= 1.0 - kBoundEps && seg < m - 1) return false;
    if (x <= kBoundEps && seg > 0 &&
        EndSlope(t, seg - 1, EvaluateSpline(t, other_seg, other_x).c) > tol)
      return false;
    return true;
  };
  return owned(s.u, a, b, s.w) && owned(s.w, b, a, s.u);
}

}  // namespace

SplinePoint EvaluateSpline(const SplineTube& t, int seg, double u) {
  const double u2 = u * u, u3 = u2 * u;
  const Vec3 &p0 = t.nodes[seg], &p1 = t.nodes[seg + 1];
  const Vec3 m0 = Tangent(t, seg), m1 = Tangent(t, seg + 1);
  SplinePoint p;
  p.c = (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * p1 +
        (u3 - u2) * m1;
  p.dc = (6 * u2 - 6 * u) * p0 + (3 * u2 - 4 * u + 1) * m0 + (-6 * u2 + 6 * u) * p1 +
         (3 * u2 - 2 * u) * m1;
  p.ddc = (12 * u - 6) * p0 + (6 * u - 4) * m0 + (-12 * u + 6) * p1 + (6 * u - 2) * m1;
  return p;
}

void SplineSelfContacts(const SplineTube& tube, double margin, std::vector<SplineContact>& out) {
  const int m = Segments(tube);
  if (m < 1) throw Error(fmt::format("spline tube: nodes = {}: must be at least 2", m + 1));
  if (tube.radius.size() != tube.nodes.size())
    throw Error(fmt::format("spline tube: radius has {} entries: must have one per node ({})",
                            tube.radius.size(), tube.nodes.size()));
  for (std::size_t k = 0; k < tube.radius.size(); ++k)
    if (!(tube.radius[k] > 0))
      throw Error(fmt::format("spline tube: radius[{}] = {}: must be > 0", k, tube.radius[k]));
  if (tube.skip < 1) throw Error(fmt::format("spline tube: skip = {}: must be ≥ 1", tube.skip));
  std::vector<Bound> bound(m);
  for (int i = 0; i < m; ++i) bound[i] = SegmentBound(tube, i);
  for (int a = 0; a < m; ++a) {
    for (int b = a + tube.skip; b < m; ++b) {
      if ((bound[a].center - bound[b].center).norm() > bound[a].reach + bound[b].reach + margin)
        continue;
      const Search s = ClosestPoints(tube, a, b);
      if (!OwnedByPair(tube, s, a, b)) continue;
      const SplinePoint pa = EvaluateSpline(tube, a, s.u);
      const Vec3& ca = pa.c;
      const Vec3 cb = EvaluateSpline(tube, b, s.w).c;
      const double ra = Radius(tube, a, s.u), rb = Radius(tube, b, s.w);
      const double dist = (cb - ca).norm();
      if (dist - ra - rb >= margin) continue;
      SplineContact c;
      c.seg_a = a, c.seg_b = b, c.u = s.u, c.w = s.w;
      if (dist > 0) {
        c.normal = (cb - ca) / dist;
      } else {  // centerlines crossing: any direction across segment a
        c.normal = pa.dc.unitOrthogonal();
      }
      c.gap = dist - ra - rb;
      c.position = 0.5 * (ca + cb) + 0.5 * (ra - rb) * c.normal;
      c.newton_iters = s.iters;
      c.converged = s.converged;
      out.push_back(c);
    }
  }
}

double SampledSegmentGap(const SplineTube& tube, int seg_a, int seg_b, int n) {
  double best = INFINITY;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j)
      best = std::min(
          best, Gap(tube, seg_a, seg_b, static_cast<double>(i) / n, static_cast<double>(j) / n));
  return best;
}

}  // namespace ncp::physics
