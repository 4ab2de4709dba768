// Self-collision of a slender body along the spline through its centerline (003 §6, HAGFISH):
// "we perform self-collision detection by passing a spline curve through the length of the
// animal and finding the colliding points with Newton's method".
//
// The centerline is the Catmull–Rom spline through nodes P_0 … P_M (tangents (P_{i+1} − P_{i−1})/2,
// one-sided at the ends), a tube whose radius is linear between the nodes' radii. Segment i
// (u ∈ [0, 1] between P_i and P_{i+1}) is tested against segment j when j − i ≥ `skip` (nearer
// pieces of a tube always overlap) and their bounding spheres are within reach. A pair's contact
// minimizes the surface gap ‖c_i(u) − c_j(w)‖ − r_i(u) − r_j(w) over the unit square by projected
// Newton, started from the chords' closest points and from the best point of a 9 × 9 grid (the
// smaller gap kept: side-by-side coils make flat valleys with shallow local minima). Minimizing
// the centerlines' distance instead would miss a tapering tube's deepest overlap. A minimum on a
// segment's end where the curve goes on is the neighbouring pair's: only minima of the whole
// tube's gap are contacts (a straight tube never touches itself).
#pragma once

#include <vector>

#include "problems/physics/geometry.h"

namespace ncp::physics {

struct SplineTube {
  std::vector<Vec3> nodes;     // P_0 … P_M, M ≥ 1, world frame
  std::vector<double> radius;  // one per node, > 0
  int skip = 2;                // segment pairs with j − i < skip are never tested (≥ 1)
  int max_newton_iters = 30;
};

struct SplineContact {
  int seg_a = -1, seg_b = -1;    // seg_a < seg_b
  double u = 0.0, w = 0.0;       // closest-point parameters on each segment
  Vec3 position = Vec3::Zero();  // midway between the two surfaces
  Vec3 normal = Vec3::UnitZ();   // unit, from segment a's centerline towards b's
  double gap = 0.0;              // < 0 when the tube passes through itself
  int newton_iters = 0;          // iterations of the pair's two Newton searches together
  bool converged = false;        // the kept search's projected gradient reached its tolerance
};

// The spline point of segment `seg` at u ∈ [0, 1], and its first two derivatives in u.
struct SplinePoint {
  Vec3 c, dc, ddc;
};
SplinePoint EvaluateSpline(const SplineTube& t, int seg, double u);

// Appends every pair's closest points with gap < margin. Throws ncp::Error on fewer than two
// nodes, a radius per node missing or not positive, or skip < 1.
void SplineSelfContacts(const SplineTube& tube, double margin, std::vector<SplineContact>& out);

// The same pair's smallest gap by sampling both segments on an (n + 1) × (n + 1) grid (a check of
// the Newton search: its gap must not exceed the best sample's).
double SampledSegmentGap(const SplineTube& tube, int seg_a, int seg_b, int n);

}  // namespace ncp::physics
