#include "problems/model/fold_soft.h"

#include <fmt/format.h>

#include "common/error.h"

namespace ncp {

FoldedProblem FoldSoftRows(const ContactProblem& p) {
  if (p.form != ProblemForm::kGlobal)
    throw Error(fmt::format("problem '{}': form = local: soft rows fold only into a global problem",
                            p.meta.name));
  FoldedProblem f;
  ContactProblem& q = f.problem;
  q.form = ProblemForm::kGlobal;
  q.meta = p.meta;
  const int m = p.num_rows();
  std::vector<int> soft_rows;
  for (const Constraint& c : p.constraints) {
    if (c.type == ConstraintType::kSoft) {
      soft_rows.push_back(c.row);
      continue;
    }
    Constraint k = c;
    k.row = static_cast<int>(f.kept_rows.size());
    q.constraints.push_back(k);
    for (int r = 0; r < c.rows(); ++r) f.kept_rows.push_back(c.row + r);
  }
  // Row selection S (kept × m): J_f = S J, e_f = S e.
  SpMat S(static_cast<int>(f.kept_rows.size()), m);
  std::vector<Eigen::Triplet<double>> t;
  for (int r = 0; r < static_cast<int>(f.kept_rows.size()); ++r)
    t.emplace_back(r, f.kept_rows[r], 1.0);
  S.setFromTriplets(t.begin(), t.end());
  q.J = S * p.J;
  q.J.makeCompressed();
  q.e = p.e.size() == m ? Vec(S * p.e) : Vec::Zero(S.rows());
  if (soft_rows.empty()) {  // identity: keep A and b bitwise
    q.A = p.A;
    q.b = p.b;
  } else {
    SpMat Ds(m, m);  // d on soft rows
    Vec ke = Vec::Zero(m);
    std::vector<Eigen::Triplet<double>> d;
    for (const Constraint& c : p.constraints) {
      if (c.type != ConstraintType::kSoft) continue;
      d.emplace_back(c.row, c.row, c.damping);
      ke[c.row] = c.stiffness * (p.e.size() == m ? p.e[c.row] : 0.0);
    }
    Ds.setFromTriplets(d.begin(), d.end());
    const SpMat Jt = p.J.transpose();
    q.A = p.A + SpMat(Jt * Ds * p.J);
    q.b = p.b - Jt * ke;
  }
  q.A.makeCompressed();
  if (p.reference) {
    Reference ref = *p.reference;
    if (ref.lambda.size() == m) ref.lambda = S * ref.lambda;
    q.reference = ref;
  }
  q.guesses = p.guesses;  // on the kept rows, as the reference
  for (Guess& g : q.guesses)
    if (g.lambda.size() == m) g.lambda = S * g.lambda;
  return f;
}

Vec UnfoldMultipliers(const ContactProblem& original, const FoldedProblem& f,
                      const Vec& folded_lambda, const Vec& v) {
  const int m = original.num_rows();
  Vec lam = Vec::Zero(m);
  for (int r = 0; r < static_cast<int>(f.kept_rows.size()); ++r)
    lam[f.kept_rows[r]] = folded_lambda[r];
  bool any_soft = false;
  for (const Constraint& c : original.constraints) any_soft |= c.type == ConstraintType::kSoft;
  if (!any_soft || v.size() != original.num_dofs()) return lam;
  const Vec Jv = original.J * v;
  for (const Constraint& c : original.constraints) {
    if (c.type != ConstraintType::kSoft) continue;
    const double e = original.e.size() == m ? original.e[c.row] : 0.0;
    lam[c.row] = -c.stiffness * e - c.damping * Jv[c.row];
  }
  return lam;
}

}  // namespace ncp
