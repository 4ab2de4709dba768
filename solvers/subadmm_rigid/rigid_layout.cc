#include "solvers/subadmm_rigid/rigid_layout.h"

#include <fmt/format.h>

#include <algorithm>

namespace ncp::gpu {

ConstraintView RigidSet::View() {
  ConstraintView c;
  c.n = n;
  c.body = body.data(), c.J = J.data(), c.e = e.data(), c.type = type.data();
  c.mu = mu.data(), c.stiffness = stiffness.data(), c.damping = damping.data();
  c.lambda = lambda.data(), c.w = w.data(), c.y = y.data(), c.z = z.data();
  return c;
}

BodyView RigidLayout::Bodies() {
  BodyView v;
  v.n = nb;
  v.mass = mass.empty() ? nullptr : mass.data();
  v.A = A.empty() ? nullptr : A.data();
  v.C = C.data(), v.L = L.data(), v.b = b.data();
  v.v = this->v.data(), v.g = g.data(), v.h = h.data(), v.hold = hold.data();
  return v;
}

void RigidLayout::SetState(const Vec& v0, const Vec& lambda0) {
  for (int b = 0; b < nb; ++b)
    for (int k = 0; k < 6; ++k) v[k * nb + b] = v0[dof_begin[b] + k];
  for (RigidSet* s : {&contacts, &joints})
    for (int i = 0; i < s->n; ++i)
      for (int k = 0; k < s->nr; ++k) s->lambda[k * s->n + i] = lambda0[s->row[i] + k];
}

void RigidLayout::GetState(Vec& v_out, Vec& lambda_out) const {
  for (int b = 0; b < nb; ++b)
    for (int k = 0; k < 6; ++k) v_out[dof_begin[b] + k] = v[k * nb + b];
  for (const RigidSet* s : {&contacts, &joints})
    for (int i = 0; i < s->n; ++i)
      for (int k = 0; k < s->nr; ++k) lambda_out[s->row[i] + k] = s->lambda[k * s->n + i];
}

std::string BuildRigidLayout(const ContactProblem& p, RigidLayout& out) {
  if (p.form != ProblemForm::kGlobal) return "needs the global form (A, b, J)";
  const Structure& st = p.structure;
  if (st.empty() || st.bodies.empty()) return "needs the structure layer with bodies";
  const int nsub = static_cast<int>(st.subsystems.size());
  if (static_cast<int>(st.bodies.size()) != nsub)
    return fmt::format("{} bodies in {} subsystems: needs one rigid body per subsystem",
                       st.bodies.size(), nsub);
  const int nb = nsub;
  // assign() below keeps each array's capacity: a layout built again for the next step of a
  // scene allocates (and page-faults) nothing new.
  out.nb = nb;
  out.dof_begin.assign(nb, 0);
  std::vector<int>& body_of_sub = out.scratch_body_of_sub;
  std::vector<int>& sub_of_dof = out.scratch_sub_of_dof;
  body_of_sub.assign(nb, -1), sub_of_dof.assign(p.num_dofs(), -1);
  for (int k = 0; k < nb; ++k) {
    const Structure::Body& body = st.bodies[k];
    const Structure::Subsystem& sub = st.subsystems[body.subsystem];
    if (sub.dof_count != 6 || body_of_sub[body.subsystem] >= 0)
      return fmt::format("subsystem {}: needs exactly one 6-dof rigid body", body.subsystem);
    // Scenes compute J_b = X(T_b⁻¹ T_b) S, the identity up to rounding: J_b = I is taken as exact.
    if (body.jacobian.rows() != 6 || body.jacobian.cols() != 6 ||
        !((body.jacobian - Eigen::Matrix<double, 6, 6>::Identity()).cwiseAbs().maxCoeff() <= 1e-12))
      return fmt::format("body {}: its Jacobian J_b is not the identity (not a free rigid body)", k);
    body_of_sub[body.subsystem] = k;
  }
  // Bodies in subsystem order (the order of SubAdmmSolver for one body per subsystem).
  for (int j = 0; j < nb; ++j) {
    out.dof_begin[j] = st.subsystems[j].dof_begin;
    for (int d = 0; d < 6; ++d) sub_of_dof[out.dof_begin[j] + d] = j;
  }
  out.A.assign(kTri * nb, 0.0);
  for (int c = 0; c < p.A.outerSize(); ++c)
    for (SpMat::InnerIterator it(p.A, c); it; ++it) {
      if (it.value() == 0.0) continue;
      const int j = sub_of_dof[c];
      if (sub_of_dof[it.row()] != j)
        return fmt::format("A({},{}) couples two bodies: needs a block-diagonal A", it.row(), c);
      const int r = it.row() - out.dof_begin[j], col = c - out.dof_begin[j];
      if (r >= col) out.A[Tri(r, col) * nb + j] = it.value();
    }
  // The paper's 4-number form when every A_b is diag(m, m, m, Ixx, Iyy, Izz) exactly.
  bool diagonal = true;
  for (int j = 0; j < nb && diagonal; ++j) {
    for (int r = 0; r < 6; ++r)
      for (int col = 0; col < r; ++col) diagonal = diagonal && out.A[Tri(r, col) * nb + j] == 0.0;
    const double m = out.A[Tri(0, 0) * nb + j];
    diagonal = diagonal && out.A[Tri(1, 1) * nb + j] == m && out.A[Tri(2, 2) * nb + j] == m;
  }
  out.mass.clear();
  if (diagonal) {
    out.mass.assign(4 * nb, 0.0);
    for (int j = 0; j < nb; ++j) {
      out.mass[j] = out.A[Tri(0, 0) * nb + j];
      for (int k = 0; k < 3; ++k) out.mass[(1 + k) * nb + j] = out.A[Tri(3 + k, 3 + k) * nb + j];
    }
    out.A.clear();
  }
  out.C.assign(kTri * nb, 0.0), out.L.assign(kTri * nb, 0.0);
  out.b.assign(6 * nb, 0.0);
  for (int j = 0; j < nb; ++j)
    for (int k = 0; k < 6; ++k) out.b[k * nb + j] = p.b[out.dof_begin[j] + k];
  out.v.assign(6 * nb, 0.0), out.g.assign(6 * nb, 0.0), out.h.assign(6 * nb, 0.0);
  out.hold.assign(6 * nb, 0.0);

  // Each constraint goes to the set of its row count, at the next index of that set.
  const int nc = p.num_constraints();
  std::vector<int>& where = out.scratch_where;
  where.assign(nc, 0);
  out.contacts.n = out.joints.n = 0;
  for (int i = 0; i < nc; ++i) {
    RigidSet& s = p.constraints[i].rows() == 3 ? out.contacts : out.joints;
    where[i] = s.n++;
  }
  for (RigidSet* s : {&out.contacts, &out.joints}) {
    const int n = s->n, nr = s->nr;
    s->row.assign(n, 0), s->body.assign(2 * n, -1), s->type.assign(n, 0);
    s->J.assign(2 * nr * 6 * n, 0.0), s->e.assign(nr * n, 0.0);
    s->mu.assign(n, 0.0), s->stiffness.assign(n, 0.0), s->damping.assign(n, 0.0);
    s->lambda.assign(nr * n, 0.0);
    s->w.assign(2 * nr * n, 0.0), s->y.assign(2 * nr * n, 0.0), s->z.assign(2 * nr * n, 0.0);
  }
  // Blocks summed per (constraint, body) straight into the slots: a slot per body, at most two.
  for (const Structure::Block& blk : st.blocks) {
    const int i = blk.constraint, j = st.bodies[blk.body].subsystem;
    RigidSet& s = p.constraints[i].rows() == 3 ? out.contacts : out.joints;
    const int k = where[i], n = s.n, nr = s.nr;
    int sl = 0;
    while (sl < 2 && s.body[sl * n + k] >= 0 && s.body[sl * n + k] != j) ++sl;
    if (sl == 2) return fmt::format("constraint {}: more than two bodies; at most two per constraint", i);
    s.body[sl * n + k] = j;
    const int rows = std::min<int>(static_cast<int>(blk.jacobian.rows()), nr);
    for (int r = 0; r < rows; ++r)
      for (int col = 0; col < 6; ++col) s.J[(sl * nr * 6 + 6 * r + col) * n + k] += blk.jacobian(r, col);
  }
  for (int i = 0; i < nc; ++i) {
    const Constraint& c = p.constraints[i];
    RigidSet& s = c.rows() == 3 ? out.contacts : out.joints;
    const int k = where[i], n = s.n, nr = s.nr;
    if (s.body[k] < 0) return fmt::format("constraint {}: no body carries it", i);
    // The lower body first, as the slacks of SubAdmmSolver.
    if (s.body[n + k] >= 0 && s.body[n + k] < s.body[k]) {
      std::swap(s.body[k], s.body[n + k]);
      for (int q = 0; q < nr * 6; ++q) std::swap(s.J[q * n + k], s.J[(nr * 6 + q) * n + k]);
    }
    s.row[k] = c.row, s.type[k] = static_cast<unsigned char>(c.type);
    s.mu[k] = c.mu, s.stiffness[k] = c.stiffness, s.damping[k] = c.damping;
    for (int r = 0; r < nr; ++r) s.e[r * n + k] = p.e[c.row + r];
  }
  return {};
}

std::vector<std::pair<std::string, double>> RigidInfo(const Scalars& sc, const RigidLayout& lay) {
  return {{"beta", sc.beta},
          {"beta_scale", sc.scale},
          {"theta_p", sc.theta_p},
          {"theta_d", sc.theta_d},
          {"theta_000_22", sc.theta_y},
          {"bodies", static_cast<double>(lay.nb)},
          {"diagonal_mass", lay.mass.empty() ? 0.0 : 1.0},
          {"refactorizations", static_cast<double>(sc.refactorizations)}};
}

}  // namespace ncp::gpu
