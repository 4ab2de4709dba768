#include "problems/physics/fem/tet_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <utility>

#include "common/error.h"

namespace ncp::physics {

double TetVolume(const std::vector<Vec3>& x, const std::array<int, 4>& t) {
  Mat3 D;
  D << x[t[1]] - x[t[0]], x[t[2]] - x[t[0]], x[t[3]] - x[t[0]];
  return D.determinant() / 6.0;
}

TetMesh BoxTetMesh(const Vec3& lo, const Vec3& size, const std::array<int, 3>& cells,
                   int tets_per_cell, int surface_faces) {
  if (tets_per_cell != 5 && tets_per_cell != 6)
    throw Error(fmt::format("box mesh tets_per_cell = {}: must be 5 or 6", tets_per_cell));
  for (int a = 0; a < 3; ++a) {
    if (!(size[a] > 0)) throw Error(fmt::format("box mesh size[{}] = {}: must be > 0", a, size[a]));
    if (cells[a] < 1 || cells[a] > 4096)
      throw Error(fmt::format("box mesh cells[{}] = {}: must be in [1, 4096]", a, cells[a]));
  }
  TetMesh m;
  const Vec3 h(size[0] / cells[0], size[1] / cells[1], size[2] / cells[2]);
  for (int k = 0; k <= cells[2]; ++k)
    for (int j = 0; j <= cells[1]; ++j)
      for (int i = 0; i <= cells[0]; ++i) {
        m.nodes.push_back(lo + Vec3(i * h[0], j * h[1], k * h[2]));
        const bool on = ((surface_faces & kFaceXMin) && i == 0) ||
                        ((surface_faces & kFaceXMax) && i == cells[0]) ||
                        ((surface_faces & kFaceYMin) && j == 0) ||
                        ((surface_faces & kFaceYMax) && j == cells[1]) ||
                        ((surface_faces & kFaceZMin) && k == 0) ||
                        ((surface_faces & kFaceZMax) && k == cells[2]);
        if (on) m.surface.push_back(static_cast<int>(m.nodes.size()) - 1);
      }
  // Cell corners are numbered by bits (x = 1, y = 2, z = 4). Kuhn: one tet per axis order, the
  // path 0 → e_a → e_a + e_b → 7 along the cell's edges. Five: the central tet on the corners
  // of one parity and a tet cut off at each corner of the other.
  static const int kKuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7},
                                  {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
  static const int kFive[2][5][4] = {
      {{1, 2, 4, 7}, {0, 1, 2, 4}, {3, 1, 2, 7}, {5, 1, 4, 7}, {6, 2, 4, 7}},
      {{0, 3, 5, 6}, {1, 0, 3, 5}, {2, 0, 3, 6}, {4, 0, 5, 6}, {7, 3, 5, 6}}};
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i) {
        int corner[8];
        for (int b = 0; b < 8; ++b)
          corner[b] = BoxNode(cells, i + (b & 1), j + (b >> 1 & 1), k + (b >> 2));
        const int(*split)[4] = tets_per_cell == 6 ? kKuhn : kFive[(i + j + k) % 2];
        for (int s = 0; s < tets_per_cell; ++s) {
          std::array<int, 4> t = {corner[split[s][0]], corner[split[s][1]], corner[split[s][2]],
                                  corner[split[s][3]]};
          if (TetVolume(m.nodes, t) < 0) std::swap(t[2], t[3]);
          m.tets.push_back(t);
        }
      }
  return m;
}

TetMesh CarvedTetMesh(const Vec3& lo, const Vec3& size, const std::array<int, 3>& cells,
                      const std::function<bool(const Vec3&)>& inside) {
  const TetMesh box = BoxTetMesh(lo, size, cells, 5);
  // BoxTetMesh emits the 5 tets of each cell together, cell by cell.
  TetMesh m;
  std::vector<int> index(box.nodes.size(), -1);
  for (std::size_t t = 0; t + 5 <= box.tets.size(); t += 5) {
    Vec3 c_lo = Vec3::Constant(INFINITY), c_hi = -c_lo;  // the cell's corners
    for (std::size_t k = t; k < t + 5; ++k)
      for (int v : box.tets[k])
        c_lo = c_lo.cwiseMin(box.nodes[v]), c_hi = c_hi.cwiseMax(box.nodes[v]);
    if (!inside(0.5 * (c_lo + c_hi))) continue;
    for (std::size_t k = t; k < t + 5; ++k) {
      std::array<int, 4> tet;
      for (int a = 0; a < 4; ++a) {
        int& id = index[box.tets[k][a]];
        if (id < 0) {
          id = static_cast<int>(m.nodes.size());
          m.nodes.push_back(box.nodes[box.tets[k][a]]);
        }
        tet[a] = id;
      }
      m.tets.push_back(tet);
    }
  }
  std::map<std::array<int, 3>, int> faces;  // sorted node triple → tets holding it
  for (const auto& t : m.tets)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> f;
      for (int a = 0, b = 0; a < 4; ++a)
        if (a != skip) f[b++] = t[a];
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  std::vector<char> on(m.nodes.size(), 0);
  for (const auto& [f, count] : faces)
    if (count == 1)
      for (int v : f) on[v] = 1;
  for (std::size_t v = 0; v < on.size(); ++v)
    if (on[v]) m.surface.push_back(static_cast<int>(v));
  if (m.tets.empty()) throw Error("carved mesh: no cell centre lies inside the shape");
  return m;
}

TetMesh BallTetMesh(const Vec3& center, double radius, int cells) {
  if (!(radius > 0)) throw Error(fmt::format("ball mesh radius = {}: must be > 0", radius));
  if (cells < 2 || cells > 4096)
    throw Error(fmt::format("ball mesh cells = {}: must be in [2, 4096]", cells));
  return CarvedTetMesh(center - Vec3::Constant(radius), Vec3::Constant(2 * radius),
                       {cells, cells, cells},
                       [&](const Vec3& c) { return (c - center).norm() <= radius; });
}

}  // namespace ncp::physics
