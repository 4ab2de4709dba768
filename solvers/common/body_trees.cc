#include "solvers/common/body_trees.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "solvers/common/spatial_inertia.h"

namespace ncp {

using Vec6 = Eigen::Matrix<double, 6, 1>;

bool BodyTrees::Init(const ContactProblem& p, std::string* why) {
  const Structure& st = p.structure;
  if (st.empty() || st.bodies.empty()) {
    *why = "the problem has no structure layer with bodies";
    return false;
  }
  const int nsub = static_cast<int>(st.subsystems.size());
  const int nb = static_cast<int>(st.bodies.size());
  // Bodies grouped by subsystem, original order inside a group (parents stay first).
  body_begin_.assign(nsub + 1, 0);
  for (const Structure::Body& b : st.bodies) ++body_begin_[b.subsystem + 1];
  for (int j = 0; j < nsub; ++j) body_begin_[j + 1] += body_begin_[j];
  pos_.assign(nb, 0);
  std::vector<int> order(nb);
  {
    std::vector<int> fill(body_begin_.begin(), body_begin_.end() - 1);
    for (int b = 0; b < nb; ++b) pos_[b] = fill[st.bodies[b].subsystem]++, order[pos_[b]] = b;
  }
  std::vector<char> covered(p.num_dofs(), 0);
  tree_.assign(nsub, {});
  begin_.assign(nsub, 0), count_.assign(nsub, 0);
  M_.assign(nb, Mat6::Zero());
  for (int j = 0; j < nsub; ++j) {
    begin_[j] = st.subsystems[j].dof_begin, count_[j] = st.subsystems[j].dof_count;
    if (!st.IsTree(j)) {
      *why = fmt::format("subsystem {} ({}) is not a kinematic tree", j, st.subsystems[j].kind);
      return false;
    }
    const int b0 = body_begin_[j], b1 = body_begin_[j + 1];
    std::vector<TreeFactor::Body> tb;
    for (int b = b0; b < b1; ++b) {
      const Structure::Body& body = st.bodies[order[b]];
      tb.push_back(
          TreeFactor::Body::FromStructure(body, body.parent >= 0 ? pos_[body.parent] - b0 : -1));
      SpatialInertia10::Body(body.mass, body.com, body.inertia).ToMatrix(M_[b]);
    }
    std::string tree_why;
    if (!tree_[j].Init(std::move(tb), count_[j], TreeFactor::Method::kAba, &tree_why)) {
      *why = fmt::format("subsystem {}: {}", j, tree_why);
      return false;
    }
    for (int k = 0; k < count_[j]; ++k) covered[begin_[j] + k] = 1;
  }
  for (int k = 0; k < p.num_dofs(); ++k)
    if (!covered[k]) {
      *why = fmt::format("dof {} lies in no tree subsystem", k);
      return false;
    }
  // The tree passes stand for A only where A's subsystem blocks are the bodies' composite
  // inertia (and A couples no subsystems): compare A x with Σ_b J_bᵀ M_b J_b x.
  V_.assign(6 * static_cast<std::size_t>(nb), 0.0);
  const int n = p.num_dofs();
  Vec x(n), y(n), ax(n);
  for (int trial = 0; trial < 2; ++trial) {
    for (int k = 0; k < n; ++k) x[k] = trial == 0 ? std::sin(1.0 + k) : std::cos(0.7 * k + 0.3);
    InertiaProduct(x, y);
    ax.noalias() = p.A * x;
    const double scale = std::max(ax.cwiseAbs().maxCoeff(), 1e-300);
    const double diff = (ax - y).cwiseAbs().maxCoeff();
    if (!(diff <= 1e-9 * scale)) {
      *why = fmt::format(
          "A differs from the bodies' inertia Σ_b J_bᵀ M_b J_b by {:.3e} (relative "
          "{:.3e} > 1e-9)",
          diff, diff / scale);
      return false;
    }
  }
  return true;
}

void BodyTrees::Twists(const Vec& x, double* V) {
  for (std::size_t j = 0; j < tree_.size(); ++j)
    tree_[j].BodyTwists(x.data() + begin_[j], V + 6 * body_begin_[j]);
}

void BodyTrees::Forces(double* F, Vec& y) {
  for (std::size_t j = 0; j < tree_.size(); ++j)
    tree_[j].JointForces(F + 6 * body_begin_[j], y.data() + begin_[j]);
}

void BodyTrees::InertiaProduct(const Vec& x, Vec& y) {
  Twists(x, V_.data());
  for (std::size_t b = 0; b < M_.size(); ++b) {
    Eigen::Map<Vec6> Vb(V_.data() + 6 * b);
    const Vec6 F = M_[b] * Vb;
    Vb = F;
  }
  Forces(V_.data(), y);
}

}  // namespace ncp
