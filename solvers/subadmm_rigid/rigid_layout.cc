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
  v.v = this->v.data(), v.g = g.data(), v.h = h.data(), v.hold = hold.data(), v.gold = gold.data();
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

namespace {

// Sizes `v` to n and zeroes it, in parallel when `par` (capacity kept: no allocation once grown).
template <typename T>
void Zeroed(std::vector<T>& v, std::size_t n, bool par, int threads) {
  v.resize(n);
  const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) num_threads(threads) if (par)
  for (std::ptrdiff_t k = 0; k < count; ++k) v[k] = T{};
}

// Fills a set's per-constraint arrays and the places of its rows (JSource::row_place).
void FillSet(const ContactProblem& p, const std::vector<int>& of_set, int set, RigidSet& s,
             std::vector<int>& row_place, bool par, int threads) {
  const int n = s.n, nr = s.nr;
#pragma omp parallel for schedule(static) num_threads(threads) if (par)
  for (int k = 0; k < n; ++k) {
    const Constraint& c = p.constraints[of_set[k]];
    s.row[k] = c.row, s.type[k] = static_cast<unsigned char>(c.type);
    s.mu[k] = c.mu, s.stiffness[k] = c.stiffness, s.damping[k] = c.damping;
    for (int r = 0; r < nr; ++r) {
      s.e[r * n + k] = p.e[c.row + r];
      s.lambda[r * n + k] = 0.0;
      row_place[c.row + r] = RowPlace(k, set, r);
    }
  }
}
}  // namespace

std::string BuildRigidLayout(const ContactProblem& p, RigidLayout& out, const LayoutOptions& opt) {
  if (p.form != ProblemForm::kGlobal) return "needs the global form (A, b, J)";
  const Structure& st = p.structure;
  if (st.empty() || st.bodies.empty()) return "needs the structure layer with bodies";
  const int nsub = static_cast<int>(st.subsystems.size());
  if (static_cast<int>(st.bodies.size()) != nsub)
    return fmt::format("{} bodies in {} subsystem{}: needs one rigid body per subsystem",
                       st.bodies.size(), nsub, nsub == 1 ? "" : "s");
  const int nb = nsub, nc = p.num_constraints();
  if (p.J.rows() != p.num_rows() || p.J.cols() != p.num_dofs() || p.e.size() != p.num_rows())
    return fmt::format("J is {} x {} and e has {} rows: needs {} x {} and {} (rows x dofs)",
                       p.J.rows(), p.J.cols(), p.e.size(), p.num_rows(), p.num_dofs(),
                       p.num_rows());
  // Threads pay off from a few thousand constraints (a 2000-cube step has about 10000).
  const bool par = opt.threads > 1 && nc >= 2048;
  const int threads = std::max(1, opt.threads);
  // resize() and assign() keep each array's capacity: a layout built again for the next step of
  // a scene allocates (and page-faults) nothing new.
  out.nb = nb;
  out.dof_begin.assign(nb, 0);
  std::vector<int>& body_of_sub = out.scratch_body_of_sub;
  std::vector<int>& sub_of_body = out.scratch_sub_of_body;
  body_of_sub.assign(nb, -1), sub_of_body.resize(nb);
  for (int k = 0; k < nb; ++k) {
    const Structure::Body& body = st.bodies[k];
    const Structure::Subsystem& sub = st.subsystems[body.subsystem];
    if (sub.dof_count != 6 || body_of_sub[body.subsystem] >= 0)
      return fmt::format("subsystem {}: needs exactly one 6-dof rigid body", body.subsystem);
    body_of_sub[body.subsystem] = k;
    sub_of_body[k] = body.subsystem;
  }
  // Bodies in subsystem order (the order of SubAdmmSolver for one body per subsystem); each
  // dof's place 6 × body + dof within it, −1 for a dof no subsystem holds.
  out.dof_place.assign(p.num_dofs(), -1);
  for (int j = 0; j < nb; ++j) {
    out.dof_begin[j] = st.subsystems[j].dof_begin;
    if (out.dof_begin[j] < 0 || out.dof_begin[j] + 6 > p.num_dofs())
      return fmt::format("subsystem {}: dofs [{}, {}) outside the problem's {}", j,
                         out.dof_begin[j], out.dof_begin[j] + 6, p.num_dofs());
    for (int d = 0; d < 6; ++d) out.dof_place[out.dof_begin[j] + d] = 6 * j + d;
  }
  const auto sub_of_dof = [&out](int dof) {
    return out.dof_place[dof] < 0 ? -1 : out.dof_place[dof] / 6;
  };
  // The paper's 4-number form when every A_b is diag(m, m, m, Ixx, Iyy, Izz) exactly (one pass
  // over A's columns), else the packed triangles.
  out.mass.resize(4 * nb);
  bool diagonal = true;
  for (int j = 0; j < nb && diagonal; ++j) {
    double dd[6];
    for (int d = 0; d < 6; ++d) {
      const int c = out.dof_begin[j] + d;
      dd[d] = 0.0;
      for (SpMat::InnerIterator it(p.A, c); it; ++it)
        if (it.row() == c)
          dd[d] = it.value();
        else if (it.value() != 0.0)
          diagonal = false;
    }
    diagonal = diagonal && dd[1] == dd[0] && dd[2] == dd[0];
    out.mass[j] = dd[0];
    for (int k = 0; k < 3; ++k) out.mass[(1 + k) * nb + j] = dd[3 + k];
  }
  if (diagonal) {
    out.A.clear();
  } else {
    out.mass.clear();
    // A_b from A's columns, body by body; the first off-block entry (smallest column) is reported.
    Zeroed(out.A, static_cast<std::size_t>(kTri) * nb, par, threads);
    int bad_column = p.num_dofs(), bad_row = 0;
#pragma omp parallel for schedule(static) reduction(min : bad_column) num_threads(threads) if (par)
    for (int j = 0; j < nb; ++j)
      for (int d = 0; d < 6; ++d) {
        const int c = out.dof_begin[j] + d;
        for (SpMat::InnerIterator it(p.A, c); it; ++it) {
          if (it.value() == 0.0) continue;
          if (sub_of_dof(static_cast<int>(it.row())) != j) {
            bad_column = std::min(bad_column, c);
            continue;
          }
          const int r = it.row() - out.dof_begin[j];
          if (r >= d) out.A[Tri(r, d) * nb + j] = it.value();
        }
      }
    if (bad_column < p.num_dofs()) {
      for (SpMat::InnerIterator it(p.A, bad_column); it; ++it)
        if (it.value() != 0.0 && sub_of_dof(static_cast<int>(it.row())) != sub_of_dof(bad_column)) {
          bad_row = static_cast<int>(it.row());
          break;
        }
      return fmt::format("A({},{}) couples two bodies: needs a block-diagonal A", bad_row,
                         bad_column);
    }
  }
  out.b.resize(6 * nb);
  for (int j = 0; j < nb; ++j)
    for (int k = 0; k < 6; ++k) out.b[k * nb + j] = p.b[out.dof_begin[j] + k];
  out.v.assign(6 * nb, 0.0);
  const std::size_t work = opt.host_work ? 6 * nb : 0;
  for (std::vector<double>* a : {&out.C, &out.L})
    Zeroed(*a, opt.host_work ? kTri * nb : 0, par, threads);
  for (std::vector<double>* a : {&out.g, &out.h, &out.hold, &out.gold})
    Zeroed(*a, work, par, threads);

  // Each constraint goes to the set of its row count, at the next index of that set.
  out.scratch_contact_of.clear(), out.scratch_joint_of.clear();
  for (int i = 0; i < nc; ++i) {
    const int rows = p.constraints[i].rows();
    if (rows == 2)
      return fmt::format("constraint {}: {} (2 rows) has no rigid-layout operator", i,
                         ToString(p.constraints[i].type));
    (rows == 3 ? out.scratch_contact_of : out.scratch_joint_of).push_back(i);
  }
  out.contacts.n = static_cast<int>(out.scratch_contact_of.size());
  out.joints.n = static_cast<int>(out.scratch_joint_of.size());
  out.row_place.assign(p.num_rows(), -1);
  for (RigidSet* s : {&out.contacts, &out.joints}) {
    const int n = s->n, nr = s->nr;
    s->row.resize(n), s->type.resize(n), s->e.resize(nr * n);
    s->body.assign(2 * n, -1);
    s->mu.resize(n), s->stiffness.resize(n), s->damping.resize(n);
    s->lambda.resize(nr * n);
    for (std::vector<double>* a : {&s->w, &s->y, &s->z})
      Zeroed(*a, opt.host_work ? 2 * nr * n : 0, par, threads);
    const bool contacts = s == &out.contacts;
    FillSet(p, contacts ? out.scratch_contact_of : out.scratch_joint_of, contacts ? 0 : 1, *s,
            out.row_place, par, threads);
  }
  // The bodies of each constraint from the structure's blocks, the lower body in slot 0 (as the
  // slacks of SubAdmmSolver); J's values come from J itself (ScatterColumn).
  const int nblocks = static_cast<int>(st.blocks.size());
  for (int k = 0; k < nblocks; ++k) {
    const Structure::Block& blk = st.blocks[k];
    if (blk.constraint < 0 || blk.constraint >= nc || blk.body < 0 || blk.body >= nb)
      return fmt::format("block {}: constraint {} of {}, body {} of {}: out of range", k,
                         blk.constraint, nc, blk.body, nb);
    const int place = out.row_place[p.constraints[blk.constraint].row];
    RigidSet& s = (place & 4) ? out.joints : out.contacts;
    int* slot = &s.body[place >> 3];
    const int j = sub_of_body[blk.body];  // not the Body itself: a few hundred bytes apart
    if (slot[0] == j || slot[s.n] == j) continue;
    if (slot[s.n] >= 0)
      return fmt::format("constraint {}: more than two bodies; at most two per constraint",
                         blk.constraint);
    slot[slot[0] < 0 ? 0 : s.n] = j;
  }
  for (RigidSet* s : {&out.contacts, &out.joints})
    for (int k = 0; k < s->n; ++k) {
      if (s->body[k] < 0)
        return fmt::format("constraint {}: no body carries it",
                           (s == &out.contacts ? out.scratch_contact_of : out.scratch_joint_of)[k]);
      if (s->body[s->n + k] >= 0 && s->body[s->n + k] < s->body[k])
        std::swap(s->body[k], s->body[s->n + k]);
    }
  if (!opt.host_work) {  // the device scatters J itself
    out.contacts.J.clear(), out.joints.J.clear();
    return {};
  }
  for (RigidSet* s : {&out.contacts, &out.joints}) Zeroed(s->J, 2 * s->nr * 6 * s->n, par, threads);
  const JSource src = out.Source(p);
  const ConstraintView cv = out.contacts.View(), jv = out.joints.View();
  int bad_j = src.cols;
#pragma omp parallel for schedule(static) reduction(min : bad_j) num_threads(threads) if (par)
  for (int col = 0; col < src.cols; ++col)
    if (!ScatterColumn(src, cv, jv, col)) bad_j = std::min(bad_j, col);
  if (bad_j < src.cols)
    return fmt::format(
        "J column {}: a nonzero in a row of a constraint whose structure blocks do "
        "not name body {}",
        bad_j, sub_of_dof(bad_j));
  return {};
}

JSource JEntries(const SpMat& J) {
  JSource s;
  s.cols = static_cast<int>(J.cols()), s.rows = static_cast<int>(J.rows());
  s.col_begin = J.outerIndexPtr(), s.col_count = J.innerNonZeroPtr();
  s.row = J.innerIndexPtr(), s.value = J.valuePtr();
  return s;
}

JSource RigidLayout::Source(const ContactProblem& p) const {
  JSource s = JEntries(p.J);  // its sizes checked against the places by BuildRigidLayout
  s.dof_place = dof_place.data(), s.row_place = row_place.data();
  return s;
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
