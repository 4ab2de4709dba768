#include "solvers/common/dual_problem.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <vector>

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

// Above this many entries of m² (10⁴ rows, about 3300 contacts), the column blocks below cost
// seconds to minutes (each block solves with the whole factor and scans m rows, O(m² + m nnz(L))).
// Where A is block diagonal with small blocks (rigid bodies, the random problems), W = J A⁻¹ Jᵀ
// is then formed from the blocks' inverses in O(nnz) instead. Smaller problems (every shipped
// dataset and protocol, the 640-link cable's 2e7 included) keep the column blocks, and their bits.
constexpr double kBlockInverseEntries = 1e8;
constexpr int kMaxInverseBlock = 64;  // dofs of one block of A (a body, a small tree)

// A⁻¹ when A's graph (dofs joined by a nonzero) falls apart into components of at most
// kMaxInverseBlock dofs, each inverted densely; an empty matrix otherwise.
SpMat SmallBlockInverse(const SpMat& A) {
  const int n = static_cast<int>(A.rows());
  std::vector<int> parent(n);
  for (int i = 0; i < n; ++i) parent[i] = i;
  const auto root = [&](int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (int k = 0; k < A.outerSize(); ++k)
    for (SpMat::InnerIterator it(A, k); it; ++it)
      parent[root(static_cast<int>(it.row()))] = root(k);
  std::vector<std::vector<int>> blocks(n);
  for (int i = 0; i < n; ++i) {
    std::vector<int>& b = blocks[root(i)];
    b.push_back(i);
    if (static_cast<int>(b.size()) > kMaxInverseBlock) return {};
  }
  std::vector<Eigen::Triplet<double>> t;
  for (const std::vector<int>& b : blocks) {
    const int k = static_cast<int>(b.size());
    if (k == 0) continue;
    Eigen::MatrixXd Ab(k, k);
    for (int r = 0; r < k; ++r)
      for (int c = 0; c < k; ++c) Ab(r, c) = A.coeff(b[r], b[c]);
    const Eigen::LLT<Eigen::MatrixXd> llt(Ab);
    if (llt.info() != Eigen::Success) return {};
    const Eigen::MatrixXd inv = llt.solve(Eigen::MatrixXd::Identity(k, k));
    for (int r = 0; r < k; ++r)
      for (int c = 0; c < k; ++c) t.emplace_back(b[r], b[c], inv(r, c));
  }
  SpMat Ainv(n, n);
  Ainv.setFromTriplets(t.begin(), t.end());
  return Ainv;
}

// Exact symmetry (rounding makes W_ij and W_ji differ in the last bits), then pairs of
// rounding-level W_ij = −W_ji, which sum to explicit zeros, dropped with the small entries.
SpMat Symmetrized(const SpMat& W0, double drop_tol) {
  SpMat W = 0.5 * (W0 + SpMat(W0.transpose()));
  if (W.nonZeros() == 0) return W;  // J without entries: no largest |W_ij| to scale by
  W.prune(drop_tol > 0 ? drop_tol * W.coeffs().cwiseAbs().maxCoeff() : 0.0, 1.0);
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

SpMat AssembleDelassus(const SpMat& A, const SpMat& J, CholmodLLT& chol, int block,
                       double drop_tol) {
  const int m = static_cast<int>(J.rows());
  const double n = static_cast<double>(J.cols());
  if (static_cast<double>(m) * m <= kDenseEntries && n * m <= kDenseEntries)
    return DenseDelassus(J, chol, drop_tol);
  if (static_cast<double>(m) * m > kBlockInverseEntries) {
    if (const SpMat Ainv = SmallBlockInverse(A); Ainv.rows() == A.rows()) {
      const SpMat X = Ainv * SpMat(J.transpose());
      return Symmetrized(SpMat(J * X), drop_tol);
    }
  }
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
  return Symmetrized(W, drop_tol);
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
    // CHOLMOD's choice (supernodal where the factor is dense enough for BLAS to pay): a small or
    // narrow A's simplicial factor assembles W and recovers v without BLAS's per-call locking.
    d.chol = std::make_shared<CholmodLLT>();
    SpMat A = p.A;
    A.makeCompressed();
    d.chol->Analyze(A);
    if (!d.chol->Factorize(A)) throw Error("A: not symmetric positive definite (Cholesky failed)");
    d.W = AssembleDelassus(p.A, p.J, *d.chol, block);
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

DualProblem MakeDiagonalDual(const ContactProblem& p, const Vec& a) {
  DualProblem d;
  d.constraints = &p.constraints;
  const SpMat Jw = p.J * a.cwiseInverse().asDiagonal();
  d.W = Symmetrized(Jw * p.J.transpose(), 0.0);
  d.q = p.e;
  d.e = p.e;
  d.J = &p.J;
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
