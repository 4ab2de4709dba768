#include "solvers/bisp/joint_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <queue>
#include <set>

namespace ncp {
namespace {

// G and Gᵀ are dense: 5e7 entries (400 MB each) bound them (about 2900 revolute joints; bisp's
// W_r, 25 entries per pair of joints, has the same bound: about 1400).
constexpr double kMaxDenseEntries = 5e7;

// Singular values below this share of the largest make a joint's normals dependent.
constexpr double kRankTol = 1e-10;

bool IsIdentity(const Eigen::MatrixXd& m) {
  return m.rows() == 6 && m.cols() == 6 &&
         (m - Eigen::MatrixXd::Identity(6, 6)).cwiseAbs().maxCoeff() < 1e-12;
}

// Maps each column of A to its body (−1: none); returns false with `why` on a body that is not a
// free rigid body of 6 dofs.
bool FreeBodies(const ContactProblem& p, JointTree& tree, std::vector<int>& body_of_col,
                std::string& why) {
  const int n = p.num_dofs();
  body_of_col.assign(n, -1);
  const Structure& s = p.structure;
  std::vector<int> bodies_in(s.subsystems.size(), 0);
  for (const Structure::Body& b : s.bodies)
    if (b.subsystem >= 0 && b.subsystem < static_cast<int>(s.subsystems.size()))
      ++bodies_in[b.subsystem];
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const Structure::Body& b = s.bodies[i];
    if (b.subsystem < 0 || b.subsystem >= static_cast<int>(s.subsystems.size())) {
      why = fmt::format("body {}: subsystem {} does not exist", i, b.subsystem);
      return false;
    }
    const Structure::Subsystem& sub = s.subsystems[b.subsystem];
    if (sub.dof_count != 6 || bodies_in[b.subsystem] != 1 || !IsIdentity(b.jacobian)) {
      why = fmt::format(
          "body {}: not a free rigid body (bisp needs maximal coordinates: one "
          "body of 6 dofs per subsystem, twist = its dofs)",
          i);
      return false;
    }
    if (sub.dof_begin < 0 || sub.dof_begin + 6 > n) {
      why = fmt::format("body {}: dofs {}..{} outside A ({} dofs)", i, sub.dof_begin,
                        sub.dof_begin + 5, n);
      return false;
    }
    JointTree::Body tb;
    tb.col = sub.dof_begin;
    tb.mass = Eigen::MatrixXd(p.A.block(tb.col, tb.col, 6, 6));
    for (int k = 0; k < 6; ++k) body_of_col[tb.col + k] = static_cast<int>(tree.bodies.size());
    tree.bodies.push_back(tb);
  }
  for (int c = 0; c < n; ++c)
    if (body_of_col[c] < 0) {
      why = fmt::format("dof {}: belongs to no rigid body (bisp needs maximal coordinates)", c);
      return false;
    }
  return true;
}

}  // namespace

bool BuildJointTree(const ContactProblem& p, double eps, JointTree& tree, std::string& why) {
  tree = JointTree{};
  if (p.form != ProblemForm::kGlobal) {
    why = "a local (W, q) problem has no bodies to reduce";
    return false;
  }
  for (int i = 0; i < p.num_constraints(); ++i)
    if (p.constraints[i].type != ConstraintType::kJointFriction) {
      why = fmt::format(
          "constraint {} is {}: bisp takes joint-friction constraints only (003 "
          "§5.3's external contacts and loop closures are not implemented)",
          i, ToString(p.constraints[i].type));
      return false;
    }
  if (p.structure.empty()) {
    why = "no structure layer: bisp needs the bodies behind the columns of A";
    return false;
  }
  std::vector<int> body_of_col;
  if (!FreeBodies(p, tree, body_of_col, why)) return false;

  // Group the constraints into joints by the bodies their rows touch.
  const SpMat Jt = p.J.transpose();                        // column r = row r of J
  std::map<std::pair<int, int>, std::vector<int>> groups;  // (a, b), a < b, a = −1: the world
  for (int i = 0; i < p.num_constraints(); ++i) {
    std::set<int> touched;
    for (int r = 0; r < 2; ++r)
      for (SpMat::InnerIterator it(Jt, p.constraints[i].row + r); it; ++it)
        if (it.value() != 0.0) touched.insert(body_of_col[it.index()]);
    if (touched.empty() || touched.size() > 2) {
      why = fmt::format("constraint {}: touches {} bodies (a joint joins one or two)", i,
                        touched.size());
      return false;
    }
    const int a = touched.size() == 1 ? -1 : *touched.begin(), b = *touched.rbegin();
    groups[{a, b}].push_back(i);
  }
  // Breadth-first from the world, then from the first body of each component left.
  const int nb = static_cast<int>(tree.bodies.size());
  std::vector<std::vector<std::pair<int, const std::vector<int>*>>> adj(nb);
  std::vector<std::pair<int, const std::vector<int>*>> world;
  for (const auto& [key, cs] : groups) {
    if (key.first < 0) {
      world.push_back({key.second, &cs});
    } else {
      adj[key.first].push_back({key.second, &cs});
      adj[key.second].push_back({key.first, &cs});
    }
  }
  std::vector<char> seen(nb, 0);
  std::vector<int> parent_of(nb, -3);
  std::vector<std::pair<int, int>> order;  // (body, parent) as reached
  std::vector<const std::vector<int>*> via;
  std::queue<int> todo;
  auto reach = [&](int b, int parent, const std::vector<int>* cs) {
    if (seen[b]) {
      why = fmt::format("body {}: reached twice (a loop of joints; bisp takes trees only)", b);
      return false;
    }
    seen[b] = 1;
    parent_of[b] = parent;
    order.push_back({b, parent});
    via.push_back(cs);
    todo.push(b);
    return true;
  };
  auto drain = [&]() {
    while (!todo.empty()) {
      const int b = todo.front();
      todo.pop();
      for (const auto& [other, cs] : adj[b]) {
        if (other == parent_of[b]) continue;  // the joint b was reached by (one per body pair)
        if (!reach(other, b, cs)) return false;
      }
    }
    return true;
  };
  for (const auto& [b, cs] : world)
    if (!reach(b, -1, cs) || !drain()) return false;
  for (int b = 0; b < nb; ++b)
    if (!seen[b] && (!reach(b, -2, nullptr) || !drain())) return false;  // −2: a free root

  // Joints, reduced columns and the maps of each body.
  std::vector<int> dof_first(nb, 0), dof_count(nb, 0);
  std::vector<Eigen::MatrixXd> S(nb), pinv(nb), T(nb);
  int nr = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto [b, parent] = order[k];
    dof_first[b] = nr;
    if (parent == -2) {  // a free body: all six dofs are reduced coordinates
      dof_count[b] = 6;
      nr += 6;
      continue;
    }
    TreeJoint j;
    j.parent = parent;
    j.child = b;
    j.constraints = *via[k];
    const int nk = static_cast<int>(j.constraints.size());
    j.Nc = Eigen::MatrixXd::Zero(nk, 6);
    j.Np = Eigen::MatrixXd::Zero(nk, 6);
    j.en.resize(nk);
    for (int r = 0; r < nk; ++r) {
      const int row = p.constraints[j.constraints[r]].row;
      for (SpMat::InnerIterator it(Jt, row); it; ++it) {
        const int body = body_of_col[it.index()];
        const int c = static_cast<int>(it.index()) - tree.bodies[body].col;
        (body == b ? j.Nc : j.Np)(r, c) = it.value();
      }
      j.en[r] = p.e.size() > row ? p.e[row] : 0.0;
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(j.Nc, Eigen::ComputeFullV);
    const auto& sv = svd.singularValues();
    const int rank =
        static_cast<int>((sv.array() > kRankTol * std::max(sv.maxCoeff(), 1e-300)).count());
    if (nk > 6) {
      why = fmt::format(
          "body {} (parent {}): {} implicit contacts join the pair, more than the 6 "
          "directions they can hold (several joints between the same two bodies?)",
          b, parent, nk);
      return false;
    }
    if (rank < nk) {
      why = fmt::format(
          "joint of body {} (parent {}): its {} implicit contacts have dependent "
          "normals (rank {}); bisp needs independent ones",
          b, parent, nk, rank);
      return false;
    }
    S[b] = svd.matrixV().rightCols(6 - nk);
    pinv[b] = j.Nc.transpose() * (j.Nc * j.Nc.transpose()).inverse();
    T[b] = -pinv[b] * j.Np;
    Eigen::LLT<Eigen::Matrix<double, 6, 6>> m(tree.bodies[b].mass);
    if (m.info() != Eigen::Success) {
      why = fmt::format("body {}: its block of A is not positive definite", b);
      return false;
    }
    const Eigen::MatrixXd MinvNt = m.solve(Eigen::MatrixXd(j.Nc.transpose()));  // 6 × k
    Eigen::MatrixXd D = j.Nc * MinvNt;
    D.diagonal().array() += eps * D.trace() / nk;
    j.local = D.ldlt().solve(MinvNt.transpose());
    tree.bodies[b].joint = static_cast<int>(tree.joints.size());
    tree.joints.push_back(std::move(j));
    dof_count[b] = 6 - nk;
    nr += 6 - nk;
  }
  const int n = p.num_dofs();
  if (static_cast<double>(n) * nr > kMaxDenseEntries) {
    why = fmt::format(
        "the reduced map G is dense, {} × {} = {:.3g} entries, above the limit {:.0e} "
        "(003's O(n) recursion is not implemented)",
        n, nr, static_cast<double>(n) * nr, kMaxDenseEntries);
    return false;
  }
  tree.G = Eigen::MatrixXd::Zero(n, nr);
  tree.g0 = Eigen::VectorXd::Zero(n);
  for (const auto& [b, parent] : order) {
    const int col = tree.bodies[b].col;
    auto Gb = tree.G.middleRows(col, 6);
    if (parent == -2) {
      Gb.middleCols(dof_first[b], 6).setIdentity();
      continue;
    }
    const TreeJoint& j = tree.joints[tree.bodies[b].joint];
    if (parent >= 0) {
      const int pc = tree.bodies[parent].col;
      Gb = T[b] * tree.G.middleRows(pc, 6);
      tree.g0.segment<6>(col) = T[b] * tree.g0.segment<6>(pc);
    }
    Gb.middleCols(dof_first[b], dof_count[b]) += S[b];
    tree.g0.segment<6>(col) -= pinv[b] * j.en;
  }
  return true;
}

}  // namespace ncp
