#include "solvers/subadmm/subadmm.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

#include "solvers/common/work_count.h"

namespace ncp {
namespace {

// M + β P in the 10-number form, as a 6×6 matrix.
void Combine(const SpatialInertia10& M, const SpatialInertia10& P, double beta, Mat6& out) {
  SpatialInertia10 s = M;
  s.m += beta * P.m;
  s.h += beta * P.h;
  s.ixx += beta * P.ixx, s.iyy += beta * P.iyy, s.izz += beta * P.izz;
  s.ixy += beta * P.ixy, s.ixz += beta * P.ixz, s.iyz += beta * P.iyz;
  s.ToMatrix(out);
}

// Starts loading a matrix's heap storage. The structure layer keeps every Jacobian in an
// allocation of its own; the setup's passes over bodies and blocks otherwise wait on each one
// in turn (most of a 27-robot setup).
template <class M>
void Prefetch(const M& m) {
  const char* at = reinterpret_cast<const char*>(m.data());
  for (std::size_t o = 0; o < sizeof(double) * static_cast<std::size_t>(m.size()); o += 64)
    __builtin_prefetch(at + o);
}
constexpr int kAhead = 8;  // items prefetched ahead

// Two consecutive doubles as one SIMD pair (the row kernels' unit).
using Pair = Eigen::Array2d;
inline Eigen::Map<Pair, Eigen::Unaligned> PairAt(double* p) { return Eigen::Map<Pair>(p); }
inline Eigen::Map<const Pair, Eigen::Unaligned> PairAt(const double* p) {
  return Eigen::Map<const Pair>(p);
}

}  // namespace

std::string SubAdmmSolver::BuildSlacks(const Settings& s) {
  set_ = SubAdmmSettings::Table().From(s);
  const Factorization method = set_.factorization;
  if (p_->structure.bodies.empty())
    return "needs bodies in the structure layer (subadmm-nobody does not)";
  if (std::string why = NodalConstraint(); !why.empty()) return why;
  // Each part fills members that the next ones read, in this order.
  SlackPlan plan;
  GroupBodies(plan);
  FindJointSlacks(plan);
  BuildBodySlacks(plan);
  AppendJointSlacks(plan);
  AccumulateBodyTerms(plan, method);
  if (std::string why = PrepareFactorizations(plan, method); !why.empty()) return why;
  ChooseApplyModes(plan, set_.apply);
  return {};
}

// A constraint whose rows reach a subsystem without bodies (an fem body's nodes beside
// articulated ones: starfish) has no body slack to carry that part.
std::string SubAdmmSolver::NodalConstraint() const {
  const ContactProblem& p = *p_;
  const Structure& st = p.structure;
  std::vector<char> has_body(nsub_, 0);
  for (const Structure::Body& b : st.bodies) has_body[b.subsystem] = 1;
  std::vector<int> bodiless_col(p.num_dofs(), -1);
  for (int j = 0; j < nsub_; ++j)
    if (!has_body[j])
      for (int k = 0; k < sub_n_[j]; ++k) bodiless_col[sub_begin_[j] + k] = j;
  std::vector<int> row_con(p.num_rows(), 0);
  for (int i = 0; i < p.num_constraints(); ++i)
    for (int r = 0; r < p.constraints[i].rows(); ++r) row_con[p.constraints[i].row + r] = i;
  for (int c = 0; c < p.J.outerSize(); ++c) {
    if (bodiless_col[c] < 0) continue;
    for (SpMat::InnerIterator it(p.J, c); it; ++it)
      if (it.value() != 0.0)
        return fmt::format(
            "constraint {}: its rows are on the dofs of subsystem {} ({}), which has no bodies: "
            "subadmm's body slacks cannot carry it (subadmm-nobody takes such rows)",
            row_con[it.row()], bodiless_col[c], st.subsystems[bodiless_col[c]].kind);
  }
  return {};
}

// Bodies grouped by subsystem, original order inside a group (parents stay first), by one
// counting pass (a pass per subsystem over bodies of ~400 bytes each is most of a 27-robot
// setup); tree[j]: every body of subsystem j has tree data (Structure::IsTree, for all j).
void SubAdmmSolver::GroupBodies(SlackPlan& plan) {
  const ContactProblem& p = *p_;
  const Structure& st = p.structure;
  const int nb = static_cast<int>(st.bodies.size());
  std::vector<int>& order = plan.order;
  std::vector<int>& pos = plan.pos;
  std::vector<char>& tree = plan.tree;
  std::vector<char>& any = plan.any;
  order.assign(nb, 0), pos.assign(nb, 0), tree.assign(nsub_, 1), any.assign(nsub_, 0);
  sub_body_begin_.assign(nsub_ + 1, 0);
  for (int b = 0; b < nb; ++b) {
    const Structure::Body& body = st.bodies[b];
    ++sub_body_begin_[body.subsystem + 1];
    any[body.subsystem] = 1;
    if (!body.has_tree()) tree[body.subsystem] = 0;
  }
  for (int j = 0; j < nsub_; ++j) sub_body_begin_[j + 1] += sub_body_begin_[j];
  {
    std::vector<int> fill(sub_body_begin_.begin(), sub_body_begin_.end() - 1);
    for (int b = 0; b < nb; ++b) pos[b] = fill[st.bodies[b].subsystem]++, order[pos[b]] = b;
  }
}

void SubAdmmSolver::FindJointSlacks(SlackPlan& plan) {
  const ContactProblem& p = *p_;
  // A 1-row constraint whose part in subsystem j is a single joint coordinate (PD drives,
  // joint limits) keeps one joint-space slack there: it adds β a² to one diagonal entry of K_j,
  // which every tree factorization absorbs, instead of two body slacks of 6 columns each.
  // joint_sub[i]: the subsystems (at most two) in which constraint i is a joint-space slack.
  auto& joint_sub = plan.joint_sub;
  std::vector<int>& jcon = plan.jcon;
  std::vector<int>& jsub = plan.jsub;
  std::vector<int>& jdof = plan.jdof;
  std::vector<double>& jcoef = plan.jcoef;
  joint_sub.assign(p.num_constraints(), {-1, -1});
  jcon.clear(), jsub.clear(), jdof.clear(), jcoef.clear();
  if (set_.joint_rows == SubAdmmSettings::JointRows::kJoint) {
    // Per 1-row constraint and touched subsystem (at most two): its one (dof, value), or dof −1
    // when it has several; a row that touches more than two subsystems keeps its body slacks.
    // One pass over J's columns visits each row's entries in column order, like a row-major
    // copy would, without making one.
    struct Touch {
      int subs[2] = {-1, -1}, dofs[2] = {-1, -1}, touched = 0;
      double vals[2] = {0, 0};
    };
    const int m = p.num_rows(), nc = p.num_constraints();
    std::vector<int> con_of_row(m, -1), sub_of_dof(p.num_dofs());
    for (int i = 0; i < nc; ++i)
      if (p.constraints[i].rows() == 1) con_of_row[p.constraints[i].row] = i;
    for (int j = 0; j < nsub_; ++j)
      for (int k = 0; k < sub_n_[j]; ++k) sub_of_dof[sub_begin_[j] + k] = j;
    std::vector<Touch> touch(nc);
    for (int col = 0; col < p.J.outerSize(); ++col) {
      const int j = sub_of_dof[col];
      for (SpMat::InnerIterator it(p.J, col); it; ++it) {
        const int i = con_of_row[it.row()];
        if (i < 0 || it.value() == 0.0) continue;
        Touch& x = touch[i];
        if (x.touched > 2) continue;
        int t = 0;
        while (t < x.touched && x.subs[t] != j) ++t;
        if (t == x.touched) {
          if (x.touched == 2) {
            x.touched = 3;
            continue;
          }
          x.subs[t] = j, x.dofs[t] = col, x.vals[t] = it.value(), ++x.touched;
        } else {
          x.dofs[t] = -1;
        }
      }
    }
    for (int i = 0; i < nc; ++i) {
      const Touch& x = touch[i];
      if (x.touched > 2) continue;
      for (int t = 0; t < x.touched; ++t)
        if (x.dofs[t] >= 0) {
          joint_sub[i][t] = x.subs[t];
          jcon.push_back(i), jsub.push_back(x.subs[t]);
          jdof.push_back(x.dofs[t] - sub_begin_[x.subs[t]]), jcoef.push_back(x.vals[t]);
        }
    }
  }
}

void SubAdmmSolver::BuildBodySlacks(const SlackPlan& plan) {
  const ContactProblem& p = *p_;
  const Structure& st = p.structure;
  const int nb = static_cast<int>(st.bodies.size());
  const auto& pos = plan.pos;
  const auto& joint_sub = plan.joint_sub;
  const auto& jcon = plan.jcon;
  // One slack per (constraint, body); repeated blocks of a pair (adjacent in the block list,
  // which is ordered by constraint) are summed.
  J_.clear(), slack_body_.clear();
  const std::size_t most = st.blocks.size() + jcon.size();
  J_.reserve(most), slack_body_.reserve(most), slack_con_.reserve(most), slack_sub_.reserve(most);
  int first_of_constraint = 0;
  for (std::size_t k = 0; k < st.blocks.size(); ++k) {
    const Structure::Block& blk = st.blocks[k];
    if (k + kAhead < st.blocks.size()) Prefetch(st.blocks[k + kAhead].jacobian);
    const int sub = st.bodies[blk.body].subsystem;
    if (joint_sub[blk.constraint][0] == sub || joint_sub[blk.constraint][1] == sub) continue;
    if (slack_con_.empty() || slack_con_.back() != blk.constraint)
      first_of_constraint = static_cast<int>(J_.size());
    int at = first_of_constraint;
    while (at < static_cast<int>(J_.size()) &&
           !(slack_con_[at] == blk.constraint && slack_body_[at] == pos[blk.body]))
      ++at;
    if (at == static_cast<int>(J_.size())) {
      slack_con_.push_back(blk.constraint);
      slack_sub_.push_back(sub);
      slack_body_.push_back(pos[blk.body]);
      J_.push_back(Block::Zero());
    }
    J_[at].topRows(blk.jacobian.rows()) += blk.jacobian;
  }
  // Slacks stored body by body, so the per-body loops of every iteration run over contiguous
  // memory.
  const int ns = static_cast<int>(J_.size());
  {
    std::vector<int> perm(ns);
    for (int k = 0; k < ns; ++k) perm[k] = k;
    std::stable_sort(perm.begin(), perm.end(),
                     [&](int a, int b) { return slack_body_[a] < slack_body_[b]; });
    auto permute = [&](auto& v) {
      auto old = v;
      for (int k = 0; k < ns; ++k) v[k] = old[perm[k]];
    };
    permute(J_), permute(slack_con_), permute(slack_sub_), permute(slack_body_);
  }
  body_slack_begin_.assign(nb + 1, 0);
  for (int k = 0; k < ns; ++k) ++body_slack_begin_[slack_body_[k] + 1];
  for (int b = 0; b < nb; ++b) body_slack_begin_[b + 1] += body_slack_begin_[b];
  nbody_slacks_ = ns;
}

void SubAdmmSolver::AppendJointSlacks(const SlackPlan& plan) {
  const ContactProblem& p = *p_;
  const int ns = nbody_slacks_;
  const auto& jcon = plan.jcon;
  const auto& jsub = plan.jsub;
  const auto& jdof = plan.jdof;
  const auto& jcoef = plan.jcoef;
  // Joint slacks follow the body slacks, grouped by subsystem.
  {
    std::vector<int> perm(jcon.size());
    for (std::size_t k = 0; k < perm.size(); ++k) perm[k] = static_cast<int>(k);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return jsub[a] < jsub[b]; });
    jdof_.clear(), jcoef_.clear();
    sub_jslack_begin_.assign(nsub_ + 1, 0);
    for (int k : perm) {
      slack_con_.push_back(jcon[k]), slack_sub_.push_back(jsub[k]);
      jdof_.push_back(jdof[k]), jcoef_.push_back(jcoef[k]);
      ++sub_jslack_begin_[jsub[k] + 1];
    }
    for (int j = 0; j < nsub_; ++j) sub_jslack_begin_[j + 1] += sub_jslack_begin_[j];
    for (int& b : sub_jslack_begin_) b += ns;
    jdiag_.assign(nsub_, Vec());
    jdiag_work_.assign(nsub_, Vec());
    for (int j = 0; j < nsub_; ++j) {
      jdiag_[j] = Vec::Zero(sub_n_[j]);
      jdiag_work_[j] = Vec::Zero(sub_n_[j]);
      for (int t = sub_jslack_begin_[j]; t < sub_jslack_begin_[j + 1]; ++t)
        jdiag_[j][jdof_[t - ns]] += con_w_[slack_con_[t]] * jcoef_[t - ns] * jcoef_[t - ns];
    }
  }
  const int nall = static_cast<int>(slack_con_.size());
  slack_row_.resize(nall), slack_nrows_.resize(nall);
  for (int k = 0; k < nall; ++k) {
    slack_row_[k] = p.constraints[slack_con_[k]].row;
    slack_nrows_[k] = p.constraints[slack_con_[k]].rows();
  }
}

void SubAdmmSolver::AccumulateBodyTerms(const SlackPlan& plan, Factorization method) {
  const ContactProblem& p = *p_;
  const Structure& st = p.structure;
  const int nb = static_cast<int>(st.bodies.size());
  const auto& order = plan.order;
  // Per body: M_b and the β-independent Σ JᵀJ, point contacts in the 10-number form.
  M10_.assign(nb, {}), P10_.assign(nb, {}), Gd_.assign(nb, Mat6::Zero());
  // The articulated-body workspace.
  H_.assign(method == Factorization::kAba ? nb : 0, Mat6::Zero());
  has_dense_.assign(nb, 0);
  int points = 0, dense = 0;
  // Each body's terms are its own.
#pragma omp parallel for schedule(static) num_threads(ThreadsUsed()) if (ThreadsUsed() > 1) \
    reduction(+ : points, dense)
  for (int b = 0; b < nb; ++b) {
    const Structure::Body& body = st.bodies[order[b]];
    M10_[b] = SpatialInertia10::Body(body.mass, body.com, body.inertia);
    for (int sl = body_slack_begin_[b]; sl < body_slack_begin_[b + 1]; ++sl) {
      Eigen::Vector3d pt;
      const double w = con_w_[slack_con_[sl]];
      if (p.constraints[slack_con_[sl]].rows() == 3 && PointContactBlock(J_[sl], pt)) {
        P10_[b].AddPointMass(w, pt);
        ++points;
      } else {
        Gd_[b].noalias() += w * (J_[sl].transpose() * J_[sl]);
        has_dense_[b] = 1;
        ++dense;
      }
    }
  }
  point_blocks_ = points, dense_blocks_ = dense;
}

// K_j per subsystem: the tree factorization (CRBA + LTDL or the articulated-body recursion)
// where the subsystem's bodies allow it, a dense Cholesky otherwise.
std::string SubAdmmSolver::PrepareFactorizations(const SlackPlan& plan, Factorization method) {
  const int nb = static_cast<int>(p_->structure.bodies.size());
  V_.assign(6 * nb, 0.0), F_.assign(nb, Eigen::Matrix<double, 6, 2>::Zero());
  mode_.assign(nsub_, kDense), tree_.assign(nsub_, {});
  Jb_.assign(nb, {}), C_.assign(nsub_, {}), dense_.Reset(nsub_);
  // The subsystems are independent: shared out over the solver's threads (each writes its own
  // members' entries); the first refusal in subsystem order is the one reported.
  std::vector<std::string> why(nsub_);
#pragma omp parallel for schedule(static) num_threads(ThreadsUsed()) if (ThreadsUsed() > 1)
  for (int j = 0; j < nsub_; ++j) why[j] = PrepareSubsystem(j, plan, method);
  for (const std::string& w : why)
    if (!w.empty()) return w;
  tree_subsystems_ = static_cast<int>(std::count(mode_.begin(), mode_.end(), kTree));
  dense_.Pack();
  return {};
}

std::string SubAdmmSolver::PrepareSubsystem(int j, const SlackPlan& plan, Factorization method) {
  const Structure& st = p_->structure;
  const auto& order = plan.order;
  const int n = sub_n_[j], b0 = sub_body_begin_[j], b1 = sub_body_begin_[j + 1];
  std::string why;
  if (method != Factorization::kDense && plan.tree[j] && plan.any[j]) {
    std::vector<TreeFactor::Body> tb;
    tb.reserve(b1 - b0);
    for (int b = b0; b < b1; ++b) {
      const Structure::Body& body = st.bodies[order[b]];
      if (b + kAhead < b1) Prefetch(st.bodies[order[b + kAhead]].jacobian);
      tb.push_back(TreeFactor::Body::FromStructure(
          body, body.parent >= 0 ? plan.pos[body.parent] - b0 : -1));
    }
    const auto m =
        method == Factorization::kAba ? TreeFactor::Method::kAba : TreeFactor::Method::kCrba;
    if (!tree_[j].Init(std::move(tb), n, m, &why)) {
      if (method == Factorization::kAba)
        return fmt::format("factorization=aba: subsystem {}: {}", j, why);
    } else if (m == TreeFactor::Method::kCrba) {
      // K_j = A_j + β CRBA(Σ JᵀJ): CRBA is linear in the per-body matrices, so the constraint
      // part is assembled once per step and each refactorization is A_j + β C_j plus the
      // elimination. A_j must lie on the branch pattern (a mass matrix of this tree does).
      if (tree_[j].CoversPattern(sub_A_[j], 0.0)) {
        C_[j] = Eigen::MatrixXd::Zero(n, n);
        std::vector<Mat6> G(b1 - b0);  // per body of the subsystem: Σ JᵀJ as a 6 × 6
        for (int b = b0; b < b1; ++b) {
          P10_[b].ToMatrix(G[b - b0]);
          G[b - b0] += Gd_[b];
        }
        tree_[j].Assemble(G.data(), C_[j]);
        C_[j].diagonal() += jdiag_[j];
        mode_[j] = kTree;
        return {};
      }
    } else {
      // The articulated-body recursion works on H_b = M_b + β G_b: A_j must be exactly the
      // bodies' composite inertia.
      std::vector<Mat6> M(b1 - b0);
      for (int b = b0; b < b1; ++b) M10_[b].ToMatrix(M[b - b0]);
      Eigen::MatrixXd crba = Eigen::MatrixXd::Zero(n, n);
      tree_[j].Assemble(M.data(), crba);
      const Eigen::MatrixXd diff = Eigen::MatrixXd(sub_A_[j].triangularView<Eigen::Lower>()) - crba;
      const double worst = diff.cwiseAbs().maxCoeff();
      if (worst > 1e-10 * sub_A_[j].cwiseAbs().maxCoeff())
        return fmt::format(
            "factorization=aba: A of subsystem {} differs from its bodies' "
            "composite inertia by {:.3e}; use crba or dense",
            j, worst);
      mode_[j] = kTree;
      return {};
    }
  } else if (method == Factorization::kAba) {
    return fmt::format("factorization=aba: subsystem {} has no tree data", j);
  }
  // Dense: K_j = A_j + β Σ_b J_bᵀ G_b J_b.
  C_[j] = Eigen::MatrixXd::Zero(n, n);
  for (int b = b0; b < b1; ++b) {
    Jb_[b] = st.bodies[order[b]].jacobian;
    Mat6 G;
    P10_[b].ToMatrix(G);
    G += Gd_[b];
    C_[j].noalias() += Jb_[b].transpose() * G * Jb_[b];
  }
  C_[j].diagonal() += jdiag_[j];
  dense_.Add(j, sub_A_[j]);
  return {};
}

void SubAdmmSolver::ChooseApplyModes(const SlackPlan& plan, Apply apply) {
  const ContactProblem& p = *p_;
  const Structure& st = p.structure;
  const int nb = static_cast<int>(st.bodies.size());
  const int ns = nbody_slacks_;
  const auto& order = plan.order;
  // How J_s v̂ and J_sᵀ λ are applied: through the bodies (one pass down and one up the tree
  // per iteration) or through each slack's row J_s J_{b,j} restricted to its nonzero columns
  // (cheap when a subsystem has many bodies and few slacks, e.g. a robot touching the ground).
  // The nonzero columns of each J_{b,j} (a tree body: its ancestors' joint dofs) bound the
  // columns of its slacks' rows. They are covered by the aligned pairs (2m, 2m + 1) that hold
  // one: every load and store of a dof then has one size and offset, which lets the processor
  // forward a pair just stored to the next slack's load. With an odd dof count the last column
  // takes the pair (n − 2, n − 1), whose first column holds a zero (its aligned pair has it).
  // Body b's pairs are [body_pair_begin[b], body_pair_end[b]), room for (columns + 1)/2 of them
  // set aside per body so that the subsystems, each over its own bodies, fill them in parallel.
  std::vector<int> body_pair_begin(nb + 1, 0), body_pair_end(nb, 0), body_pair_col;
  std::vector<char> body_pair_own;  // bit q: the pair holds its column q
  for (int b = 0; b < nb; ++b)
    body_pair_begin[b + 1] =
        body_pair_begin[b] + (static_cast<int>(st.bodies[order[b]].jacobian.cols()) + 1) / 2;
  body_pair_col.resize(body_pair_begin[nb]), body_pair_own.resize(body_pair_begin[nb]);
  rows_mode_.assign(nsub_, 0);
#pragma omp parallel for schedule(static) num_threads(ThreadsUsed()) if (ThreadsUsed() > 1)
  for (int j = 0; j < nsub_; ++j) {
    double body_cost = 0.0, row_cost = 0.0;
    for (int b = sub_body_begin_[j]; b < sub_body_begin_[j + 1]; ++b) {
      const Eigen::MatrixXd& Jb = st.bodies[order[b]].jacobian;
      if (b + kAhead < sub_body_begin_[j + 1]) Prefetch(st.bodies[order[b + kAhead]].jacobian);
      const int nj = static_cast<int>(Jb.cols());
      int& end = body_pair_end[b];
      end = body_pair_begin[b];
      for (int c = 0; c < nj && nj >= 2; ++c) {
        if (Jb.col(c).isZero(0.0)) continue;
        const bool tail = c + 1 == nj && c % 2 == 0;
        const int first = tail ? c - 1 : c - c % 2;
        if (end > body_pair_begin[b] && body_pair_col[end - 1] == first) continue;
        body_pair_col[end] = first, body_pair_own[end] = tail ? 2 : 3;
        ++end;
      }
      const int ncols = 2 * (end - body_pair_begin[b]);
      body_cost += 100.0;  // a forward and a backward tree step
      for (int sl = body_slack_begin_[b]; sl < body_slack_begin_[b + 1]; ++sl) {
        body_cost += 18.0 * slack_nrows_[sl];
        row_cost += 3.0 * slack_nrows_[sl] * ncols;
      }
    }
    rows_mode_[j] = sub_n_[j] >= 2 &&  // pairs need two columns
                    (apply == Apply::kRows || (apply == Apply::kAuto && row_cost < body_cost));
  }
  spair_begin_.assign(ns + 1, 0);
  for (int sl = 0; sl < ns; ++sl) {
    const int b = slack_body_[sl];
    const int pairs = rows_mode_[slack_sub_[sl]] ? body_pair_end[b] - body_pair_begin[b] : 0;
    spair_begin_[sl + 1] = spair_begin_[sl] + pairs;
  }
  pair_col_.resize(spair_begin_[ns]);
  pair_val_.resize(6 * static_cast<std::size_t>(spair_begin_[ns]));
#pragma omp parallel for schedule(static) num_threads(ThreadsUsed()) if (ThreadsUsed() > 1)
  for (int sl = 0; sl < ns; ++sl) {
    if (!rows_mode_[slack_sub_[sl]]) continue;
    const int b = slack_body_[sl];
    const Eigen::MatrixXd& Jb = st.bodies[order[b]].jacobian;
    int at = spair_begin_[sl];
    for (int q = body_pair_begin[b]; q < body_pair_end[b]; ++q, ++at) {
      pair_col_[at] = body_pair_col[q];
      const Eigen::Matrix<double, 3, 2> v = J_[sl] * Jb.middleCols<2>(body_pair_col[q]);
      double* out = pair_val_.data() + 6 * static_cast<std::size_t>(at);
      for (int u = 0; u < 2; ++u)
        for (int i = 0; i < 3; ++i) out[2 * i + u] = (body_pair_own[q] >> u & 1) ? v(i, u) : 0.0;
    }
  }
}

void SubAdmmSolver::InitialBeta(const Settings&, std::vector<double>& beta) const {
  std::fill(beta.begin(), beta.end(), DensityBeta(*p_));
}

bool SubAdmmSolver::Factorize(int j, double beta) {
  if (mode_[j] == kTree && tree_[j].method() == TreeFactor::Method::kCrba)
    return tree_[j].FactorizeSum(sub_A_[j], beta, C_[j]);
  if (mode_[j] == kTree) {  // articulated-body recursion on H_b = M_b + β G_b
    for (int b = sub_body_begin_[j]; b < sub_body_begin_[j + 1]; ++b) {
      Combine(M10_[b], P10_[b], beta, H_[b]);
      if (has_dense_[b]) H_[b].noalias() += beta * Gd_[b];
    }
    const bool joint = sub_jslack_begin_[j + 1] > sub_jslack_begin_[j];
    if (joint) jdiag_work_[j] = beta * jdiag_[j];
    return tree_[j].Factorize(H_.data() + sub_body_begin_[j],
                              joint ? jdiag_work_[j].data() : nullptr);
  }
  return dense_.Factorize(j, sub_A_[j], C_[j], beta);
}

void SubAdmmSolver::Solve(int j, const double* rhs, double* v) {
  if (mode_[j] == kTree) {
    tree_[j].Solve(rhs, v);
    return;
  }
  if (rhs != v) std::copy(rhs, rhs + sub_n_[j], v);
  dense_.Solve(j, v);
}

void SubAdmmSolver::SlackVelocities(int j, const double* v) {
  const int b0 = sub_body_begin_[j], b1 = sub_body_begin_[j + 1];
  if (rows_mode_[j]) {
    // Locals: stores through w would otherwise make the compiler reload the members' pointers.
    const int* begin = spair_begin_.data();
    const int* col = pair_col_.data();
    const int s0 = body_slack_begin_[b0], s1 = body_slack_begin_[b1];
    const double* a = pair_val_.data() + 6 * static_cast<std::size_t>(begin[s0]);
    double* w = w_.data();
    for (int sl = s0; sl < s1; ++sl) {
      Pair w0 = Pair::Zero(), w1 = Pair::Zero(), w2 = Pair::Zero();
      for (int t = begin[sl], end = begin[sl + 1]; t < end; ++t, a += 6) {
        const Pair x = PairAt(v + col[t]);
        w0 += PairAt(a) * x, w1 += PairAt(a + 2) * x, w2 += PairAt(a + 4) * x;
      }
      w[3 * sl] = w0.sum(), w[3 * sl + 1] = w1.sum(), w[3 * sl + 2] = w2.sum();
    }
  } else {
    SlackVelocitiesByBody(j, v);
  }
  for (int t = sub_jslack_begin_[j]; t < sub_jslack_begin_[j + 1]; ++t)
    w_[3 * t] = jcoef_[t - nbody_slacks_] * v[jdof_[t - nbody_slacks_]];
}

void SubAdmmSolver::SlackVelocitiesByBody(int j, const double* v) {
  const int b0 = sub_body_begin_[j], b1 = sub_body_begin_[j + 1];
  if (mode_[j] == kTree) {
    tree_[j].BodyTwists(v, V_.data() + 6 * b0);
  } else {
    const Eigen::Map<const Vec> vj(v, sub_n_[j]);
    for (int b = b0; b < b1; ++b)
      Eigen::Map<Eigen::Matrix<double, 6, 1>>(V_.data() + 6 * b).noalias() = Jb_[b] * vj;
  }
  for (int b = b0; b < b1; ++b) {
    const double* V = V_.data() + 6 * b;
    for (int sl = body_slack_begin_[b]; sl < body_slack_begin_[b + 1]; ++sl) {
      const double* J = J_[sl].data();
      double* w = w_.data() + 3 * sl;
      auto row = [&](int r) {
        const double* a = J + 6 * r;
        w[r] = a[0] * V[0] + a[1] * V[1] + a[2] * V[2] + a[3] * V[3] + a[4] * V[4] + a[5] * V[5];
      };
      row(0);
      if (slack_nrows_[sl] == 3) row(1), row(2);
    }
  }
}

void SubAdmmSolver::Accumulate(int j, double* g, double* h) {
  const double* lam = lambda_.data();
  if (rows_mode_[j]) {
    // Locals: stores into g and h would otherwise make the compiler reload the members' pointers.
    for (int k = 0; k < sub_n_[j]; ++k) g[k] = 0.0, h[k] = 0.0;
    const int* begin = spair_begin_.data();
    const int* col = pair_col_.data();
    const int* row = slack_row_.data();
    const int* nrows = slack_nrows_.data();
    const int* con = slack_con_.data();
    const double* cw = con_w_.data();
    const double* zs = z_.data();
    const int s0 = body_slack_begin_[sub_body_begin_[j]];
    const int s1 = body_slack_begin_[sub_body_begin_[j + 1]];
    const double* a = pair_val_.data() + 6 * static_cast<std::size_t>(begin[s0]);
    for (int sl = s0; sl < s1; ++sl) {
      const double* l = lam + row[sl];
      const double* z = zs + 3 * sl;
      const bool three = nrows[sl] == 3;
      const double l0 = l[0], l1 = three ? l[1] : 0.0, l2 = three ? l[2] : 0.0;
      const double w = cw[con[sl]], z0 = w * z[0], z1 = w * z[1], z2 = w * z[2];
      for (int t = begin[sl], end = begin[sl + 1]; t < end; ++t, a += 6) {
        const Pair c0 = PairAt(a), c1 = PairAt(a + 2), c2 = PairAt(a + 4);
        PairAt(g + col[t]) += c0 * l0 + c1 * l1 + c2 * l2;
        PairAt(h + col[t]) += c0 * z0 + c1 * z1 + c2 * z2;
      }
    }
  } else {
    AccumulateByBody(j, g, h);
  }
  for (int t = sub_jslack_begin_[j]; t < sub_jslack_begin_[j + 1]; ++t) {
    const int k = jdof_[t - nbody_slacks_];
    const double a = jcoef_[t - nbody_slacks_];
    g[k] += a * lam[slack_row_[t]];
    h[k] += a * con_w_[slack_con_[t]] * z_[3 * t];
  }
}

void SubAdmmSolver::AccumulateByBody(int j, double* g, double* h) {
  const int b0 = sub_body_begin_[j], b1 = sub_body_begin_[j + 1];
  const double* lam = lambda_.data();
  for (int b = b0; b < b1; ++b) {
    double f[12] = {};  // [Σ Jᵀλ | Σ Jᵀz]
    for (int sl = body_slack_begin_[b]; sl < body_slack_begin_[b + 1]; ++sl) {
      const double* J = J_[sl].data();
      const double* zr = z_.data() + 3 * sl;
      const double w = con_w_[slack_con_[sl]];
      const double z[3] = {w * zr[0], w * zr[1], w * zr[2]};
      const double* l = lam + slack_row_[sl];
      if (slack_nrows_[sl] == 3) {
        for (int c = 0; c < 6; ++c) {
          f[c] += J[c] * l[0] + J[6 + c] * l[1] + J[12 + c] * l[2];
          f[6 + c] += J[c] * z[0] + J[6 + c] * z[1] + J[12 + c] * z[2];
        }
      } else {
        for (int c = 0; c < 6; ++c) f[c] += J[c] * l[0], f[6 + c] += J[c] * z[0];
      }
    }
    std::copy(f, f + 12, F_[b].data());
  }
  if (mode_[j] == kTree) {
    tree_[j].JointForces2(F_.data() + b0, g, h);
  } else {
    Eigen::Map<Vec> gj(g, sub_n_[j]), hj(h, sub_n_[j]);
    gj.setZero(), hj.setZero();
    for (int b = b0; b < b1; ++b) {
      gj.noalias() += Jb_[b].transpose() * F_[b].col(0);
      hj.noalias() += Jb_[b].transpose() * F_[b].col(1);
    }
  }
}

std::vector<std::pair<std::string, double>> SubAdmmSolver::Info() const {
  auto info = SubAdmmBase::Info();
  info.push_back({"tree_subsystems", static_cast<double>(tree_subsystems_)});
  info.push_back({"point_blocks", static_cast<double>(point_blocks_)});
  info.push_back({"dense_blocks", static_cast<double>(dense_blocks_)});
  info.push_back({"joint_slacks", static_cast<double>(jdof_.size())});
  int rows = 0;
  for (char r : rows_mode_) rows += r;
  info.push_back({"row_applied_subsystems", static_cast<double>(rows)});
  return info;
}

// Per subsystem: the solve (tree or dense factor); the slack products, read twice (w = J v̂,
// then Σ Jᵀλ and Σ Jᵀz): in rows mode the column pairs (6 values and an index, 12 flops out, 24
// back); by body the 3 × 6 blocks (36 and 72 flops) with the body twists and joint forces (a
// tree pass, or the dense J_{b,j} forward and twice back); the joint slacks' index and
// coefficient.
WorkCount SubAdmmSolver::SubsystemWork(int j) const {
  using namespace work;
  const double jslack = 2.0 * (kIndex + kValue);
  const double n = sub_n_[j];
  WorkCount w = mode_[j] == kTree ? tree_[j].SolveWork() : DenseFactorSolve(n);
  const int b0 = sub_body_begin_[j], b1 = sub_body_begin_[j + 1];
  const double slacks = body_slack_begin_[b1] - body_slack_begin_[b0];
  if (rows_mode_[j]) {
    const double pairs = spair_begin_[body_slack_begin_[b1]] - spair_begin_[body_slack_begin_[b0]];
    w = w + WorkCount{2.0 * pairs * (6.0 * kValue + kIndex), 36.0 * pairs};
  } else {
    w = w + WorkCount{2.0 * slacks * sizeof(Block), 108.0 * slacks};
    if (mode_[j] == kTree)
      w = w + 2.0 * tree_[j].PassWork();
    else
      w = w + 3.0 * DenseProduct(6.0 * (b1 - b0), n);
  }
  return w + WorkCount{jslack * (sub_jslack_begin_[j + 1] - sub_jslack_begin_[j]),
                       6.0 * (sub_jslack_begin_[j + 1] - sub_jslack_begin_[j])};
}

}  // namespace ncp
