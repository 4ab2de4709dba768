// Contact between a signed distance field and a triangle by Frank–Wolfe minimization of the field
// over the triangle (Macklin et al. 2020, "Local optimization for robust signed distance field
// collision"): the linear minimization oracle over a triangle is its best vertex, with away
// steps (Lacoste-Julien & Jaggi 2015) and an exact line search (golden section), so a linear
// field is solved at once and a convex one converges linearly from any start.
#pragma once

#include <Eigen/Core>

#include "problems/physics/sdf/sdf.h"

namespace ncp::physics {

struct SdfTriangleContact {
  Eigen::Vector3d point;   // minimizer on the triangle (field frame)
  double distance = 0.0;   // φ(point)
  Eigen::Vector3d normal;  // ∇φ(point): the contact normal, out of the field's solid
  int iterations = 0;
};

struct FrankWolfeOptions {
  int max_iterations = 64;
  double gap_tol = 1e-12;  // stop when the Frank–Wolfe gap ∇φ·(x − s) falls below this
  int line_search_steps = 60;
};

SdfTriangleContact FrankWolfeTriangle(const Sdf& sdf, const Eigen::Vector3d& v0,
                                      const Eigen::Vector3d& v1, const Eigen::Vector3d& v2,
                                      const FrankWolfeOptions& opt = {});

}  // namespace ncp::physics
