#include "solvers/common/dual_problem.h"

#include <fmt/format.h>

#include "common/error.h"

namespace ncp {

namespace {

// Dense W = J A⁻¹ Jᵀ: where few dofs carry many rows (a rigid body: 6 dofs under 360 contact
// rows) W is full, and forming it densely skips the triplets, their sort and the transposed
// sum, which cost ~10× the arithmetic there.
constexpr double kDenseEntries = 2e6;  // m² and n·m up to this (16 MB each)

SpMat DenseDelassus(const SpMat& J, CholmodLLT& chol, double drop_tol) {
  const Eigen::MatrixXd Jt = Eigen::MatrixXd(J.transpose());
  Eigen::MatrixXd X;
  chol.Solve(Jt, X);
  const Eigen::MatrixXd Wd = J * X;
  // Exact symmetry: rounding makes W_ij and W_ji differ in the last bits.
  const Eigen::MatrixXd Ws = 0.5 * (Wd + Wd.transpose());
  const double cut = drop_tol > 0 ? drop_tol * Ws.cwiseAbs().maxCoeff() : 0.0;
  SpMat W = Ws.sparseView(cut, 1.0);  // keeps |W_ij| > cut: exact zeros drop either way
  W.makeCompressed();
  return W;
}

}  // namespace

bool FactorDynamics(const ContactProblem& p, std::unique_ptr<CholmodLLT>& chol, Vec& v_free) {
  chol = std::make_unique<CholmodLLT>();
  chol->Analyze(p.A);
  if (!chol->Factorize(p.A)) return false;
  v_free = Vec(p.A.rows());
  chol->Solve(p.b, v_free);
  return true;
}

SpMat AssembleDelassus(const SpMat& J, CholmodLLT& chol, int block, double drop_tol) {
  const int m = static_cast<int>(J.rows());
  const double n = static_cast<double>(J.cols());
  if (static_cast<double>(m) * m <= kDenseEntries && n * m <= kDenseEntries)
    return DenseDelassus(J, chol, drop_tol);
  const SpMat Jt = J.transpose();
  std::vector<Eigen::Triplet<double>> t;
  Eigen::MatrixXd X;
  for (int c0 = 0; c0 < m; c0 += block) {
    const int nc = std::min(block, m - c0);
    const Eigen::MatrixXd B = Eigen::MatrixXd(Jt.middleCols(c0, nc));
    chol.Solve(B, X);
    const Eigen::MatrixXd Wc = J * X;  // m × nc: columns c0.. of W
    for (int c = 0; c < nc; ++c)
      for (int r = 0; r < m; ++r)
        if (Wc(r, c) != 0.0) t.emplace_back(r, c0 + c, Wc(r, c));
  }
  SpMat W(m, m);
  W.setFromTriplets(t.begin(), t.end());
  // Exact symmetry: rounding makes W_ij and W_ji differ in the last bits.
  W = 0.5 * (W + SpMat(W.transpose()));
  // Pairs of rounding-level W_ij = −W_ji sum to explicit zeros: dropped with the small entries.
  W.prune(drop_tol > 0 ? drop_tol * W.coeffs().cwiseAbs().maxCoeff() : 0.0, 1.0);
  W.makeCompressed();
  return W;
}

namespace {

// A soft row λ = −k e − d (u − e) is the stationarity of the dual with compliance 1/d on the
// diagonal: (W_rr + 1/d) λ + (q_r − (d − k) e_r / d) = 0 given the other rows. Folding it makes
// the row an equality row for every dual solver.
void FoldSoftRows(const std::vector<Constraint>& cs, DualProblem& d) {
  for (const Constraint& c : cs) {
    if (c.type != ConstraintType::kSoft) continue;
    d.W.coeffRef(c.row, c.row) += 1.0 / c.damping;
    d.q[c.row] -= (c.damping - c.stiffness) * d.e[c.row] / c.damping;
  }
  d.W.makeCompressed();
}

}  // namespace

DualProblem MakeDualProblem(const ContactProblem& p, int block) {
  DualProblem d;
  d.constraints = &p.constraints;
  if (p.form == ProblemForm::kLocal) {
    // Stored transposed, so that the row access of the dual solvers uses W as stored when an
    // exported W is not exactly symmetric (as Siconos' NSGS does).
    d.W = p.W.transpose();
    d.W.makeCompressed();
    d.q = p.q;
    d.e = Vec::Zero(p.q.size());
  } else {
    d.chol = std::make_shared<CholmodLLT>();
    SpMat A = p.A;
    A.makeCompressed();
    d.chol->Analyze(A);
    if (!d.chol->Factorize(A)) throw Error("A: not symmetric positive definite (Cholesky failed)");
    d.W = AssembleDelassus(p.J, *d.chol, block);
    d.v_free = Vec(p.A.rows());
    d.chol->Solve(p.b, d.v_free);
    d.q = p.J * d.v_free + p.e;
    d.e = p.e;
    d.J = &p.J;
  }
  FoldSoftRows(p.constraints, d);
  d.diag = d.W.diagonal();
  return d;
}

Vec VelocityOf(const SpMat& J, CholmodLLT& chol, const Vec& v_free, const Vec& lambda) {
  const Vec rhs = J.transpose() * lambda;
  Vec x(rhs.size());
  chol.Solve(rhs, x);
  return v_free + x;
}

Vec DualProblem::Velocity(const Vec& lambda) const {
  if (!chol) return Vec();
  return VelocityOf(*J, *chol, v_free, lambda);
}

}  // namespace ncp
