// fem_beam (000 §IV-A3): a 0.05 × 0.05 × 0.5 m co-rotational FEM beam (E = 10 MPa, ν = 0.45)
// pushed through a gap narrower than itself: its back face is driven forward at constant speed
// (bilateral rows) along a table, its tip enters a funnel of two fixed boxes per side that
// narrows to `gap`.
// The beam is split along its length into `pieces` subsystems; neighbouring pieces duplicate
// their interface nodes and bilateral ties join the copies (000 §III-A).
#include <cmath>
#include <fmt/format.h>

#include "common/error.h"
#include "problems/scenarios/deformable/deformable_scene.h"

namespace ncp {

using namespace physics;

namespace {
constexpr double kLength = 0.5, kWidth = 0.05;
constexpr int kCrossCells = 4, kLengthCells = 66;  // size 1: 1675 nodes (+ copies), 6336 tets
}  // namespace

Scene MakeFemBeam(const std::map<std::string, double>& p, std::uint64_t seed) {
  const int c = ScaledCells(p, kCrossCells, 2);
  const int pieces = static_cast<int>(p.at("pieces"));
  const int nl = std::max(pieces, ScaledCells(p, kLengthCells, 2));
  const double gap = p.at("gap");  // the spec keeps it in (0, kWidth): narrower than the beam
  const FemMaterial mat{p.at("youngs"), p.at("poisson"), p.at("density")};
  const double mu = p.at("mu"), speed = p.at("speed");

  Scene sc = NewDeformableScene(p);
  DeformableSystem& s = *sc.deformable;

  // Pieces along x; the tip starts at x = 0.095, a few mm short of touching the funnel.
  const double x0 = 0.095 - kLength, dx = kLength / nl;
  std::array<int, 3> prev_cells{};
  for (int k = 0; k < pieces; ++k) {
    const int i0 = k * nl / pieces, i1 = (k + 1) * nl / pieces;
    int faces = kFaceYMin | kFaceYMax | kFaceZMin | kFaceZMax;
    if (k == 0) faces |= kFaceXMin;
    if (k + 1 == pieces) faces |= kFaceXMax;
    const std::array<int, 3> cells = {i1 - i0, c, c};
    const TetMesh mesh = BoxTetMesh(Vec3(x0 + i0 * dx, -kWidth / 2, -kWidth / 2),
                                    Vec3((i1 - i0) * dx, kWidth, kWidth), cells, 6, faces);
    const int body = s.AddBody(mesh, mat, mu, Damping(p));
    if (k > 0)
      for (int kk = 0; kk <= c; ++kk)
        for (int j = 0; j <= c; ++j)
          s.AddTie(body - 1, BoxNode(prev_cells, prev_cells[0], j, kk), body,
                   BoxNode(cells, 0, j, kk));
    else {
      std::vector<int> back;
      for (int kk = 0; kk <= c; ++kk)
        for (int j = 0; j <= c; ++j) back.push_back(BoxNode(cells, 0, j, kk));
      s.AddDriver(body, back, [speed](double t) { return Vec3(speed * t, 0, 0); });
    }
    prev_cells = cells;
  }

  // The beam lies on a table (without it the 10 MPa beam, clamped only at its back face, sags
  // and buckles under the push instead of entering the gap).
  s.AddPlane(Vec3::UnitZ(), -kWidth / 2, mu);
  // Walls on each side: a ramp from half-width 0.045 at x = 0.02 to gap/2 at x = 0.12, then a
  // straight channel to x = 0.32. Boxes 2 cm thick, 20 cm tall.
  const double hw = 0.01, hz = 0.1;
  for (const double side : {1.0, -1.0}) {
    const Vec3 a(0.02, side * 0.045, 0), b(0.12, side * gap / 2, 0);
    const Vec3 d = (b - a).normalized();
    Vec3 normal(-d.y(), d.x(), 0);  // in the floor plane, away from the channel
    if (normal.y() * side < 0) normal = -normal;
    const Mat3 R = Eigen::AngleAxisd(std::atan2(d.y(), d.x()), Vec3::UnitZ()).toRotationMatrix();
    Pose ramp = Pose::Identity();
    ramp.linear() = R;
    ramp.translation() = 0.5 * (a + b) + hw * normal;
    s.AddBox(Vec3(0.5 * (b - a).norm() + 0.002, hw, hz), mu, [ramp](double) {
      KinematicState st;
      st.pose = ramp;
      return st;
    });
    const Pose wall(Eigen::Translation3d(0.22, side * (gap / 2 + hw), 0));
    s.AddBox(Vec3(0.1, hw, hz), mu, [wall](double) {
      KinematicState st;
      st.pose = wall;
      return st;
    });
  }
  s.SetParam("pieces", pieces);
  return sc;
}

}  // namespace ncp
