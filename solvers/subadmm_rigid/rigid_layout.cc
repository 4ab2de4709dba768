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

// Error codes of the parallel passes, smallest index first: 2 × index + kind.
enum BadConstraint { kThreeBodies = 0, kNoBody = 1 };

// Fills a set's per-constraint arrays, kTile set indices at a time: each constraint's blocks are
// summed per body into two local slots (the lower body first, as the slacks of SubAdmmSolver),
// then the tile is written row by row. J's rows lie n doubles apart, a power of two apart in
// cache sets for many n: written constraint by constraint they would evict each other.
// Returns the smallest bad code (BadConstraint), 2 × num_constraints when none.
constexpr int kTile = 8;

template <int NR>
int FillSet(const ContactProblem& p, const std::vector<int>& begin, const std::vector<int>& order,
            const std::vector<int>& of_set, RigidSet& s, bool par, int threads) {
  const Structure& st = p.structure;
  const int n = s.n, tiles = (n + kTile - 1) / kTile;
  constexpr int kRow = NR * 6;
  int bad = 2 * p.num_constraints();
#pragma omp parallel for schedule(static) reduction(min : bad) num_threads(threads) if (par)
  for (int t = 0; t < tiles; ++t) {
    const int k0 = t * kTile, width = std::min(kTile, n - k0);
    double J[kTile][2 * kRow] = {};
    int body[kTile][2];
    for (int kk = 0; kk < width; ++kk) {
      const int i = of_set[k0 + kk];
      int* sb = body[kk];
      sb[0] = sb[1] = -1;
      for (int o = begin[i]; o < begin[i + 1]; ++o) {
        const Structure::Block& blk = st.blocks[order[o]];
        const int j = st.bodies[blk.body].subsystem;
        int sl = 0;
        while (sl < 2 && sb[sl] >= 0 && sb[sl] != j) ++sl;
        if (sl == 2) {
          bad = std::min(bad, 2 * i + kThreeBodies);
          break;
        }
        sb[sl] = j;
        const int rows = std::min<int>(static_cast<int>(blk.jacobian.rows()), NR);
        for (int r = 0; r < rows; ++r)
          for (int col = 0; col < 6; ++col) J[kk][sl * kRow + 6 * r + col] += blk.jacobian(r, col);
      }
      if (sb[0] < 0) bad = std::min(bad, 2 * i + kNoBody);
      if (sb[1] >= 0 && sb[1] < sb[0]) {
        std::swap(sb[0], sb[1]);
        for (int q = 0; q < kRow; ++q) std::swap(J[kk][q], J[kk][kRow + q]);
      }
      const Constraint& c = p.constraints[i];
      const int k = k0 + kk;
      s.row[k] = c.row, s.type[k] = static_cast<unsigned char>(c.type);
      s.mu[k] = c.mu, s.stiffness[k] = c.stiffness, s.damping[k] = c.damping;
    }
    for (int sl = 0; sl < 2; ++sl)
      for (int kk = 0; kk < width; ++kk) s.body[sl * n + k0 + kk] = body[kk][sl];
    for (int q = 0; q < 2 * kRow; ++q)
      for (int kk = 0; kk < width; ++kk) s.J[q * n + k0 + kk] = J[kk][q];
    for (int r = 0; r < NR; ++r)
      for (int kk = 0; kk < width; ++kk) {
        s.e[r * n + k0 + kk] = p.e[s.row[k0 + kk] + r];
        s.lambda[r * n + k0 + kk] = 0.0;
      }
  }
  return bad;
}
}  // namespace

std::string BuildRigidLayout(const ContactProblem& p, RigidLayout& out, const LayoutOptions& opt) {
  if (p.form != ProblemForm::kGlobal) return "needs the global form (A, b, J)";
  const Structure& st = p.structure;
  if (st.empty() || st.bodies.empty()) return "needs the structure layer with bodies";
  const int nsub = static_cast<int>(st.subsystems.size());
  if (static_cast<int>(st.bodies.size()) != nsub)
    return fmt::format("{} bodies in {} subsystems: needs one rigid body per subsystem",
                       st.bodies.size(), nsub);
  const int nb = nsub, nc = p.num_constraints();
  // Threads pay off from a few thousand constraints (a 2000-cube step has about 10000).
  const bool par = opt.threads > 1 && nc >= 2048;
  const int threads = std::max(1, opt.threads);
  // resize() and assign() keep each array's capacity: a layout built again for the next step of
  // a scene allocates (and page-faults) nothing new.
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
  // A_b from A's columns, body by body; the first off-block entry (smallest column) is reported.
  Zeroed(out.A, static_cast<std::size_t>(kTri) * nb, par, threads);
  int bad_column = p.num_dofs(), bad_row = 0;
#pragma omp parallel for schedule(static) reduction(min : bad_column) num_threads(threads) if (par)
  for (int j = 0; j < nb; ++j)
    for (int d = 0; d < 6; ++d) {
      const int c = out.dof_begin[j] + d;
      for (SpMat::InnerIterator it(p.A, c); it; ++it) {
        if (it.value() == 0.0) continue;
        if (sub_of_dof[it.row()] != j) {
          bad_column = std::min(bad_column, c);
          continue;
        }
        const int r = it.row() - out.dof_begin[j];
        if (r >= d) out.A[Tri(r, d) * nb + j] = it.value();
      }
    }
  if (bad_column < p.num_dofs()) {
    for (SpMat::InnerIterator it(p.A, bad_column); it; ++it)
      if (it.value() != 0.0 && sub_of_dof[it.row()] != sub_of_dof[bad_column]) {
        bad_row = static_cast<int>(it.row());
        break;
      }
    return fmt::format("A({},{}) couples two bodies: needs a block-diagonal A", bad_row, bad_column);
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
    out.mass.resize(4 * nb);
    for (int j = 0; j < nb; ++j) {
      out.mass[j] = out.A[Tri(0, 0) * nb + j];
      for (int k = 0; k < 3; ++k) out.mass[(1 + k) * nb + j] = out.A[Tri(3 + k, 3 + k) * nb + j];
    }
    out.A.clear();
  }
  out.b.resize(6 * nb);
  for (int j = 0; j < nb; ++j)
    for (int k = 0; k < 6; ++k) out.b[k * nb + j] = p.b[out.dof_begin[j] + k];
  out.v.assign(6 * nb, 0.0);
  const std::size_t work = opt.host_work ? 6 * nb : 0;
  for (std::vector<double>* a : {&out.C, &out.L}) Zeroed(*a, opt.host_work ? kTri * nb : 0, par, threads);
  for (std::vector<double>* a : {&out.g, &out.h, &out.hold, &out.gold}) Zeroed(*a, work, par, threads);

  // Each constraint goes to the set of its row count, at the next index of that set; its blocks
  // are listed together (a counting sort by constraint), so constraints fill in parallel.
  std::vector<int>& begin = out.scratch_block_begin;
  std::vector<int>& order = out.scratch_block_order;
  out.scratch_contact_of.clear(), out.scratch_joint_of.clear();
  for (int i = 0; i < nc; ++i)
    (p.constraints[i].rows() == 3 ? out.scratch_contact_of : out.scratch_joint_of).push_back(i);
  out.contacts.n = static_cast<int>(out.scratch_contact_of.size());
  out.joints.n = static_cast<int>(out.scratch_joint_of.size());
  begin.assign(nc + 1, 0);
  const int nblocks = static_cast<int>(st.blocks.size());
  for (int k = 0; k < nblocks; ++k) {
    const Structure::Block& blk = st.blocks[k];
    if (blk.constraint < 0 || blk.constraint >= nc || blk.body < 0 || blk.body >= nb)
      return fmt::format("block {}: constraint {} of {}, body {} of {}: out of range", k,
                         blk.constraint, nc, blk.body, nb);
    ++begin[blk.constraint + 1];
  }
  for (int i = 0; i < nc; ++i) begin[i + 1] += begin[i];
  order.resize(nblocks);
  for (int k = 0; k < nblocks; ++k) order[begin[st.blocks[k].constraint]++] = k;
  for (int i = nc; i > 0; --i) begin[i] = begin[i - 1];  // back to each constraint's first block
  begin[0] = 0;
  int bad = 2 * nc;
  for (RigidSet* s : {&out.contacts, &out.joints}) {
    const int n = s->n, nr = s->nr;
    s->row.resize(n), s->body.resize(2 * n), s->type.resize(n);
    s->J.resize(2 * nr * 6 * n), s->e.resize(nr * n);
    s->mu.resize(n), s->stiffness.resize(n), s->damping.resize(n);
    s->lambda.resize(nr * n);
    for (std::vector<double>* a : {&s->w, &s->y, &s->z}) Zeroed(*a, opt.host_work ? 2 * nr * n : 0, par, threads);
    const std::vector<int>& of_set = s == &out.contacts ? out.scratch_contact_of : out.scratch_joint_of;
    if (nr == 3)
      bad = std::min(bad, FillSet<3>(p, begin, order, of_set, *s, par, threads));
    else
      bad = std::min(bad, FillSet<1>(p, begin, order, of_set, *s, par, threads));
  }
  if (bad < 2 * nc)
    return bad % 2 == kThreeBodies
               ? fmt::format("constraint {}: more than two bodies; at most two per constraint", bad / 2)
               : fmt::format("constraint {}: no body carries it", bad / 2);
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
