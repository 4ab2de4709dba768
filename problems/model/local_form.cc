#include "problems/model/local_form.h"

#include <Eigen/SparseCholesky>
#include <fmt/format.h>

#include "common/error.h"
#include "problems/model/fold_soft.h"

namespace ncp {

ContactProblem MakeLocalForm(const ContactProblem& global) {
  if (global.form != ProblemForm::kGlobal)
    throw Error(fmt::format("problem '{}': already in local form", global.meta.name));
  const FoldedProblem folded = FoldSoftRows(global);
  const ContactProblem& g = folded.problem;
  // rows[k]: row of g behind local row k (−1: the zero tangent rows of a unilateral row).
  std::vector<int> rows;
  ContactProblem out;
  out.form = ProblemForm::kLocal;
  out.meta = g.meta;
  for (std::size_t i = 0; i < g.constraints.size(); ++i) {
    const Constraint& c = g.constraints[i];
    if (c.type == ConstraintType::kContact) {
      AddConstraint(out.constraints, ConstraintType::kContact, c.mu);
      rows.insert(rows.end(), {c.row, c.row + 1, c.row + 2});
    } else if (c.type == ConstraintType::kUnilateral) {
      AddConstraint(out.constraints, ConstraintType::kContact, 0.0);
      rows.insert(rows.end(), {c.row, -1, -1});
    } else {
      throw Error(
          fmt::format("problem '{}': constraint {} is {}: an fclib local problem holds "
                      "contacts only",
                      global.meta.name, i, ToString(c.type)));
    }
  }
  const int m = static_cast<int>(rows.size());
  const SpMat Jt_all = g.J.transpose();  // column r = row r of J
  std::vector<Eigen::Triplet<double>> t;
  for (int k = 0; k < m; ++k)
    if (rows[k] >= 0)
      for (SpMat::InnerIterator it(Jt_all, rows[k]); it; ++it)
        t.emplace_back(static_cast<int>(it.row()), k, it.value());
  SpMat Jt(g.A.rows(), m);  // n × m: the selected rows of J, transposed
  Jt.setFromTriplets(t.begin(), t.end());
  Eigen::SimplicialLDLT<SpMat> ldlt(g.A);
  if (ldlt.info() != Eigen::Success)
    throw Error(fmt::format("problem '{}': A: not symmetric positive definite", global.meta.name));
  const Eigen::MatrixXd X = ldlt.solve(Eigen::MatrixXd(Jt));  // A⁻¹ Jᵀ
  const Vec vfree = ldlt.solve(g.b);
  Eigen::MatrixXd W = Jt.transpose() * X;
  W = 0.5 * (W + W.transpose()).eval();
  out.W = W.sparseView(0.0, 1.0);
  out.W.makeCompressed();
  out.q = Jt.transpose() * vfree;
  for (int k = 0; k < m; ++k)
    if (rows[k] >= 0) out.q[k] += g.e[rows[k]];
  if (g.reference) {
    Reference ref;
    ref.lambda = Vec::Zero(m);
    for (int k = 0; k < m; ++k)
      if (rows[k] >= 0) ref.lambda[k] = g.reference->lambda[rows[k]];
    ref.solver = g.reference->solver;
    out.reference = std::move(ref);
  }
  return out;
}

}  // namespace ncp
