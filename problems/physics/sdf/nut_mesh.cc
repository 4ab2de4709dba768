#include "problems/physics/sdf/nut_mesh.h"

#include <cmath>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp::physics {

NutMesh MakeNut(const ThreadSdf& bolt, const NutOptions& o) {
  if (!(o.height > 0)) throw Error(fmt::format("nut.height = {}: must be > 0", o.height));
  if (!(o.clearance >= 0))
    throw Error(fmt::format("nut.clearance = {}: must be >= 0", o.clearance));
  if (o.segments_per_turn < 8)
    throw Error(fmt::format("nut.segments_per_turn = {}: must be >= 8", o.segments_per_turn));
  const double P = bolt.pitch();
  if (!(o.across_flats > 2.0 * (bolt.major_radius() + o.clearance)))
    throw Error(
        fmt::format("nut.across_flats = {}: must exceed the thread's diameter", o.across_flats));
  NutMesh n;
  TriangleMesh& m = n.mesh;
  // The profile's corners in one period of the helical coordinate ζ: root, flank, crest, flank.
  const double zs[5] = {-P / 2.0 + P / 8.0, -P / 16.0, P / 16.0, P / 2.0 - P / 8.0,
                        P / 2.0 + P / 8.0};
  // Sweep each straight profile segment along the helix: point (ρ(ζ), θ, ζ + Pθ/2π).
  const int per_turn = o.segments_per_turn;
  const int turns = static_cast<int>(std::ceil(o.height / P)) + 2;
  auto vertex = [&](double zeta, double theta) {
    const double rho = bolt.ProfileRadius(zeta) + o.clearance;
    return Eigen::Vector3d(rho * std::cos(theta), rho * std::sin(theta),
                           zeta + P * theta / (2 * M_PI));
  };
  for (int s = 0; s < 4; ++s) {
    for (int k = -per_turn; k < turns * per_turn; ++k) {
      const double t0 = 2 * M_PI * k / per_turn, t1 = 2 * M_PI * (k + 1) / per_turn;
      const Eigen::Vector3d a = vertex(zs[s], t0), b = vertex(zs[s], t1);
      // The segment's far corner, read just inside the segment (ρ jumps there only in slope).
      const Eigen::Vector3d c = vertex(zs[s + 1] - 1e-12, t1), d = vertex(zs[s + 1] - 1e-12, t0);
      const double zmin = std::min({a.z(), b.z(), c.z(), d.z()}),
                   zmax = std::max({a.z(), b.z(), c.z(), d.z()});
      if (zmax < 0.0 || zmin > o.height) continue;  // outside the nut's height
      const int i0 = static_cast<int>(m.vertices.size());
      m.vertices.insert(m.vertices.end(), {a, b, c, d});
      // Facing the axis (into the hole, where the bolt is).
      m.triangles.push_back({i0, i0 + 2, i0 + 1});
      m.triangles.push_back({i0, i0 + 3, i0 + 2});
    }
  }
  n.thread_triangles = static_cast<int>(m.triangles.size());
  // Hexagonal outside: six side faces.
  const double rc = o.across_flats / std::sqrt(3.0);  // circumradius
  for (int k = 0; k < 6; ++k) {
    const double a0 = M_PI / 6 + k * M_PI / 3, a1 = a0 + M_PI / 3;
    const int i0 = static_cast<int>(m.vertices.size());
    m.vertices.push_back({rc * std::cos(a0), rc * std::sin(a0), 0.0});
    m.vertices.push_back({rc * std::cos(a1), rc * std::sin(a1), 0.0});
    m.vertices.push_back({rc * std::cos(a1), rc * std::sin(a1), o.height});
    m.vertices.push_back({rc * std::cos(a0), rc * std::sin(a0), o.height});
    m.triangles.push_back({i0, i0 + 1, i0 + 2});
    m.triangles.push_back({i0, i0 + 2, i0 + 3});
  }
  // Mass properties: hexagonal prism minus the threaded hole (a cylinder at the mean of the
  // profile radius, which the thread's volume averages to), as a hollow body about its axis.
  double mean_r2 = 0.0;
  const int samples = 4000;
  for (int k = 0; k < samples; ++k) {
    const double r = bolt.ProfileRadius(P * (k + 0.5) / samples) + o.clearance;
    mean_r2 += r * r / samples;
  }
  const double hex_area = std::sqrt(3.0) / 2.0 * o.across_flats * o.across_flats;
  const double hole_area = M_PI * mean_r2;
  n.volume = (hex_area - hole_area) * o.height;
  // Per kg. A regular hexagon of circumradius R has polar moment (5√3/8) R⁴, i.e. (5/12) R² per
  // unit area; the hole is a disc. About x and y: the hollow-prism formula (jz/2 + h²/12).
  const double Iz_hex = 5.0 / 12.0 * rc * rc * hex_area, Iz_hole = 0.5 * mean_r2 * hole_area;
  const double jz = (Iz_hex - Iz_hole) / (hex_area - hole_area);  // per unit mass
  const double jxy = 0.5 * jz + o.height * o.height / 12.0;       // thin-walled about the com
  n.com = Eigen::Vector3d(0.0, 0.0, 0.5 * o.height);
  n.unit_inertia = Eigen::Vector3d(jxy, jxy, jz).asDiagonal();  // about the com
  return n;
}

}  // namespace ncp::physics
