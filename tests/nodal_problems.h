// Manufactured nodal problems for COND (002 §III-A1): a jittered mass-spring lattice of point
// nodes (3 dofs each, A = M + h² K with axial springs along edges and face diagonals), contacts
// acting directly on nodes in random frames — S-contacts (R_i on one node) and D-contacts (R_i on
// node a, −R_i on node b), each node in at most one contact — and b, e built so that a chosen
// (v*, λ*) with open / stick / slip contacts is an exact solution. Optional general contacts act
// on the midpoint of two nodes (rows R_i (S_a + S_b)/2): not nodal, so COND gives them virtual
// nodes.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp::testing {

struct NodalOptions {
  std::uint64_t seed = 1;
  int nx = 6, ny = 6, nz = 6;
  double mass = 1.0;
  double stiffness_ratio = 10.0;  // h² k / m of one spring: sets the conditioning of A
  int s_contacts = 40;
  int d_contacts = 20;
  int general_contacts = 0;
  double mu_min = 0.2, mu_max = 1.0;
};

inline ContactProblem MakeNodalProblem(const NodalOptions& o) {
  std::mt19937_64 rng(o.seed);
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const int nodes = o.nx * o.ny * o.nz, n = 3 * nodes;
  auto id = [&](int i, int j, int k) { return (i * o.ny + j) * o.nz + k; };
  std::vector<Eigen::Vector3d> pos(nodes);
  for (int i = 0; i < o.nx; ++i)
    for (int j = 0; j < o.ny; ++j)
      for (int k = 0; k < o.nz; ++k)
        pos[id(i, j, k)] =
            Eigen::Vector3d(i + uni(-0.2, 0.2), j + uni(-0.2, 0.2), k + uni(-0.2, 0.2));

  // A = M + h² Σ k d dᵀ ⊗ (e_a − e_b)(e_a − e_b)ᵀ over springs (a, b).
  std::vector<Eigen::Triplet<double>> t;
  for (int d = 0; d < n; ++d) t.emplace_back(d, d, o.mass);
  auto spring = [&](int a, int b) {
    const Eigen::Vector3d dir = (pos[b] - pos[a]).normalized();
    const Eigen::Matrix3d H = o.stiffness_ratio * o.mass * dir * dir.transpose();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        t.emplace_back(3 * a + r, 3 * a + c, H(r, c));
        t.emplace_back(3 * b + r, 3 * b + c, H(r, c));
        t.emplace_back(3 * a + r, 3 * b + c, -H(r, c));
        t.emplace_back(3 * b + r, 3 * a + c, -H(r, c));
      }
  };
  const int offsets[][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}};
  for (int i = 0; i < o.nx; ++i)
    for (int j = 0; j < o.ny; ++j)
      for (int k = 0; k < o.nz; ++k)
        for (const auto& off : offsets)
          if (i + off[0] < o.nx && j + off[1] < o.ny && k + off[2] < o.nz)
            spring(id(i, j, k), id(i + off[0], j + off[1], k + off[2]));
  ContactProblem p;
  p.A.resize(n, n);
  p.A.setFromTriplets(t.begin(), t.end());
  p.A.makeCompressed();

  // Contacts: distinct nodes for the nodal ones, random frames (rows [n, t1, t2] of a rotation).
  std::vector<int> order(nodes);
  for (int i = 0; i < nodes; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  auto frame = [&] {
    std::normal_distribution<double> g;
    return Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
  };
  std::vector<Eigen::Triplet<double>> jt;
  int next = 0;
  auto place = [&](int row, const Eigen::Matrix3d& R, int node, double w) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        if (R(r, c) != 0.0) jt.emplace_back(row + r, 3 * node + c, w * R(r, c));
  };
  const int total = o.s_contacts + o.d_contacts + o.general_contacts;
  for (int i = 0; i < total; ++i) {
    const int row = AddConstraint(p.constraints, ConstraintType::kContact, uni(o.mu_min, o.mu_max));
    const int r0 = p.constraints[row].row;
    const Eigen::Matrix3d R = frame();
    if (i < o.s_contacts) {
      place(r0, R, order[next++], 1.0);
    } else if (i < o.s_contacts + o.d_contacts) {
      place(r0, R, order[next], 1.0);
      place(r0, R, order[next + 1], -1.0);
      next += 2;
    } else {  // midpoint of two lattice neighbours: a general (non-nodal) contact
      const int a = order[next++ % nodes];
      const int b = a + 1 < nodes ? a + 1 : a - 1;
      place(r0, R, a, 0.5);
      place(r0, R, b, 0.5);
    }
  }
  const int m = p.num_rows();
  p.J.resize(m, n);
  p.J.setFromTriplets(jt.begin(), jt.end());
  p.J.makeCompressed();

  // Known solution: λ* and u* = J v* + e by a random open / stick / slip status per contact.
  Vec v(n), lam = Vec::Zero(m), u = Vec::Zero(m);
  for (int i = 0; i < n; ++i) v[i] = uni(-1, 1);
  for (const Constraint& c : p.constraints) {
    const int r = c.row;
    const double kind = uni(0, 1), a = uni(0, 2 * M_PI);
    if (kind < 0.2) {  // open: separating, no impulse
      u[r] = uni(0.1, 1.0), u[r + 1] = uni(-1, 1), u[r + 2] = uni(-1, 1);
      continue;
    }
    lam[r] = uni(0.5, 2.0);
    if (kind < 0.6) {  // stick: impulse strictly inside the cone, no relative velocity
      const double rad = uni(0.0, 0.9) * c.mu * lam[r];
      lam[r + 1] = rad * std::cos(a), lam[r + 2] = rad * std::sin(a);
    } else {  // slip: impulse on the cone boundary, opposing the sliding velocity
      const double speed = uni(0.1, 1.0);
      u[r + 1] = speed * std::cos(a), u[r + 2] = speed * std::sin(a);
      lam[r + 1] = -c.mu * lam[r] * std::cos(a), lam[r + 2] = -c.mu * lam[r] * std::sin(a);
    }
  }
  p.e = u - p.J * v;
  p.b = p.A * v - p.J.transpose() * lam;
  p.reference = Reference{v, lam, "manufactured", 0.0};
  p.meta.name = "nodal";
  p.meta.scenario = "nodal";
  p.meta.seed = o.seed;
  return p;
}

}  // namespace ncp::testing
