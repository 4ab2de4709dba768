#include "problems/physics/fem/tet_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/error.h"

namespace ncp::physics {

double TetVolume(const std::vector<Vec3>& x, const std::array<int, 4>& t) {
  Mat3 D;
  D << x[t[1]] - x[t[0]], x[t[2]] - x[t[0]], x[t[3]] - x[t[0]];
  return D.determinant() / 6.0;
}

TetMesh BoxTetMesh(const Vec3& lo, const Vec3& size, const std::array<int, 3>& cells,
                   int surface_faces) {
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
  // Kuhn subdivision: one tet per axis order (a, b, c), the path 0 → e_a → e_a + e_b → 1 along
  // the cell's edges.
  static const int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i)
        for (const auto& order : kOrders) {
          std::array<int, 3> at = {i, j, k};
          std::array<int, 4> t;
          t[0] = BoxNode(cells, at[0], at[1], at[2]);
          for (int s = 0; s < 3; ++s) {
            ++at[order[s]];
            t[s + 1] = BoxNode(cells, at[0], at[1], at[2]);
          }
          if (TetVolume(m.nodes, t) < 0) std::swap(t[2], t[3]);
          m.tets.push_back(t);
        }
  return m;
}

}  // namespace ncp::physics
