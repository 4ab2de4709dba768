#include "problems/model/descriptors.h"

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <optional>

#include "problems/model/validate.h"

namespace ncp {
namespace {

// Columns of Jᵀ solved with A at a time: bounds the dense n × k block in memory.
constexpr int kSolveChunk = 64;

// W = J A⁻¹ Jᵀ, dense; nullopt when A is not numerically positive definite.
std::optional<Eigen::MatrixXd> GlobalDelassus(const ContactProblem& p) {
  Eigen::SimplicialLDLT<SpMat> ldlt(p.A);
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().minCoeff() > 0.0)) return std::nullopt;
  const int m = static_cast<int>(p.J.rows());
  const SpMat jt = p.J.transpose();
  Eigen::MatrixXd w(m, m);
  for (int c = 0; c < m; c += kSolveChunk) {
    const int k = std::min(kSolveChunk, m - c);
    const Eigen::MatrixXd x = ldlt.solve(Eigen::MatrixXd(jt.middleCols(c, k)));
    w.middleCols(c, k) = p.J * x;
  }
  return w;
}

// Rank and condition on the numerical range, from the eigenvalues of the symmetric part.
void RankAndCondition(const Eigen::MatrixXd& w, ProblemDescriptors& d) {
  const int m = static_cast<int>(w.rows());
  if (m == 0 || !w.allFinite()) return;
  const Eigen::MatrixXd sym = 0.5 * (w + w.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(sym, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) return;
  const Eigen::VectorXd& ev = es.eigenvalues();  // ascending
  const double top = ev(m - 1);
  d.rank = 0;
  double smallest_kept = top;
  if (top > 0.0) {
    for (int i = 0; i < m; ++i) {
      if (ev(i) > kRankRelTol * top) {
        ++d.rank;
        smallest_kept = std::min(smallest_kept, ev(i));
      }
    }
    d.condition = top / smallest_kept;
  }
  d.rank_ratio = static_cast<double>(d.rank) / m;
}

double MaxOverMin(const Eigen::VectorXd& x) {
  double lo = INFINITY, hi = 0.0;
  for (int i = 0; i < x.size(); ++i) {
    if (x(i) > 0.0) lo = std::min(lo, x(i)), hi = std::max(hi, x(i));
  }
  return hi > 0.0 ? hi / lo : ProblemDescriptors::kNaN;
}

}  // namespace

ProblemDescriptors Describe(const ContactProblem& p, int max_rows) {
  ProblemDescriptors d;
  d.contacts = p.num_contacts();
  d.rows = p.num_rows();
  for (const Constraint& c : p.constraints) {
    if (c.type != ConstraintType::kContact) continue;
    d.mu_min = std::isnan(d.mu_min) ? c.mu : std::min(d.mu_min, c.mu);
    d.mu_max = std::isnan(d.mu_max) ? c.mu : std::max(d.mu_max, c.mu);
  }
  if (p.form == ProblemForm::kLocal) {
    d.asymmetry = Asymmetry(p.W);
    if (d.rows <= max_rows) RankAndCondition(Eigen::MatrixXd(p.W), d);
    return d;
  }
  d.asymmetry = 0.0;
  if (p.num_dofs() > 0) d.contact_density = 3.0 * d.contacts / p.num_dofs();
  if (!p.structure.bodies.empty()) {
    Eigen::VectorXd masses(p.structure.bodies.size());
    for (std::size_t b = 0; b < p.structure.bodies.size(); ++b)
      masses(static_cast<int>(b)) = p.structure.bodies[b].mass;
    d.mass_ratio = MaxOverMin(masses);
  } else {
    d.mass_ratio = MaxOverMin(Eigen::VectorXd(p.A.diagonal()));
  }
  if (d.rows <= max_rows) {
    if (const auto w = GlobalDelassus(p)) RankAndCondition(*w, d);
  }
  return d;
}

}  // namespace ncp
