// Structured tetrahedral meshes of boxes: a grid of cells, each split into
//   6 tets: the Kuhn (Freudenthal) subdivision about the main diagonal, the same in every cell;
//   5 tets: a central tet and 4 corner tets, mirrored in alternate cells (by the parity of
//           i + j + k) — fewer tets and less bending lock than 6 at the same grid.
// Either way neighbouring cells share their face diagonals, so the mesh is conforming, and every
// tet is positively oriented (det[x1−x0, x2−x0, x3−x0] > 0).
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "problems/physics/geometry.h"

namespace ncp::physics {

struct TetMesh {
  std::vector<Vec3> nodes;               // rest positions
  std::vector<std::array<int, 4>> tets;  // node indices, positively oriented
  std::vector<int> surface;              // nodes that may touch obstacles, ascending
};

// Faces of the box that count as surface (bit mask): a piece of a split body leaves its
// interface faces out.
enum BoxFace : int {
  kFaceXMin = 1,
  kFaceXMax = 2,
  kFaceYMin = 4,
  kFaceYMax = 8,
  kFaceZMin = 16,
  kFaceZMax = 32,
  kAllFaces = 63
};

// The box [lo, lo + size] cut into cells[0] × cells[1] × cells[2] cells of `tets_per_cell` (5 or
// 6) tets. Node (i, j, k) has index i + (cells[0] + 1) (j + (cells[1] + 1) k). Throws ncp::Error
// on a non-positive size or count.
TetMesh BoxTetMesh(const Vec3& lo, const Vec3& size, const std::array<int, 3>& cells,
                   int tets_per_cell = 6, int surface_faces = kAllFaces);

// The cells of a BoxTetMesh (5 tets each) whose centres satisfy `inside`, kept whole so the mesh
// stays conforming; its surface is the nodes of faces that belong to one tet only. Throws
// ncp::Error as BoxTetMesh does, or when no cell is kept.
TetMesh CarvedTetMesh(const Vec3& lo, const Vec3& size, const std::array<int, 3>& cells,
                      const std::function<bool(const Vec3&)>& inside);

// A ball of `radius` about `center`: CarvedTetMesh of its bounding cube (`cells` per side) by
// the ball. Throws ncp::Error on a non-positive radius or a count outside [2, 4096].
TetMesh BallTetMesh(const Vec3& center, double radius, int cells);

// Index of grid node (i, j, k) of a BoxTetMesh with `cells`.
inline int BoxNode(const std::array<int, 3>& cells, int i, int j, int k) {
  return i + (cells[0] + 1) * (j + (cells[1] + 1) * k);
}

// Signed volume of tet t (positive for a positively oriented tet) at positions `x`.
double TetVolume(const std::vector<Vec3>& x, const std::array<int, 4>& t);

}  // namespace ncp::physics
