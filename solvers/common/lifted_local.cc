#include "solvers/common/lifted_local.h"

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "problems/model/validate.h"

namespace ncp {

std::string BuildLiftedLocal(const ContactProblem& local, LiftedLocal& out, double rank_tol) {
  if (local.form != ProblemForm::kLocal) return "not a local (W, q) problem";
  const int m = static_cast<int>(local.W.rows());
  if (local.W.cols() != m || local.q.size() != m)
    return fmt::format("W is {} x {} and q has {} rows: W must be square with q's size",
                       local.W.rows(), local.W.cols(), local.q.size());
  if (m > kMaxLiftedRows)
    return fmt::format("{} rows: the lifted form factorizes W densely, limit {} rows", m,
                       kMaxLiftedRows);
  const Eigen::MatrixXd W(local.W);
  if (!W.allFinite() || !local.q.allFinite()) return "W or q has a non-finite entry";
  const double w_max = m > 0 ? W.cwiseAbs().maxCoeff() : 0.0;
  if (!(w_max > 0)) return "W is zero: nothing to factorize";
  const Eigen::MatrixXd Ws = 0.5 * (W + W.transpose());
  // Pivoted Cholesky, right-looking: each step takes the largest diagonal of the current Schur
  // complement, so the pivots D_k decrease and the first one ≤ tol·max D stops it with what is
  // left bounded by that pivot (the complement is semidefinite). Eigen's LDLT is not used: it
  // picks pivots from the diagonal before the update, which is not rank revealing on a
  // semidefinite W_s (it keeps noise pivots; truncation 7e-2 of max|W| on the LMGC sample).
  Vec d = Ws.diagonal();
  const double d_max = d.maxCoeff();
  if (!(d_max > 0))
    return fmt::format("the symmetric part of W has no positive diagonal (largest {:.3g})", d_max);
  std::vector<char> pivoted(m, 0);
  Eigen::MatrixXd F(m, m);
  int r = 0;
  for (; r < m; ++r) {
    int p = -1;
    for (int i = 0; i < m; ++i)
      if (!pivoted[i] && (p < 0 || d[i] > d[p])) p = i;
    if (!(d[p] > rank_tol * d_max)) break;
    pivoted[p] = 1;
    F.col(r).noalias() = Ws.col(p) - F.leftCols(r) * F.row(p).head(r).transpose();
    F.col(r) /= std::sqrt(d[p]);
    for (int i = 0; i < m; ++i) {
      if (pivoted[i] && i != p) F(i, r) = 0.0;  // exactly zero in exact arithmetic
      if (!pivoted[i]) d[i] -= F(i, r) * F(i, r);
    }
    F(p, r) = std::sqrt(d[p]);
  }
  F.conservativeResize(m, r);

  out = LiftedLocal{};
  out.rank = r;
  out.rows = m;
  out.truncation = (Ws - F * F.transpose()).cwiseAbs().maxCoeff() / w_max;
  out.asymmetry = Asymmetry(local.W);  // as validation and the load warning measure it
  ContactProblem& g = out.problem;
  g.form = ProblemForm::kGlobal;
  g.A.resize(r, r);
  g.A.setIdentity();
  g.b = Vec::Zero(r);
  std::vector<Eigen::Triplet<double>> t;
  for (int c = 0; c < r; ++c)
    for (int i = 0; i < m; ++i)
      if (F(i, c) != 0.0) t.emplace_back(i, c, F(i, c));
  g.J.resize(m, r);
  g.J.setFromTriplets(t.begin(), t.end());
  g.J.makeCompressed();
  g.e = local.q;
  g.constraints = local.constraints;
  g.meta = local.meta;
  if (local.reference && local.reference->lambda.size() == m) {
    g.reference = local.reference;
    g.reference->v = g.J.transpose() * local.reference->lambda;  // v̂ = A⁻¹(b + Jᵀλ)
  }
  return "";
}

}  // namespace ncp
