#include "harness/warm_carry.h"

#include <algorithm>

namespace ncp {

ConstraintKeys::ConstraintKeys(const ContactProblem& p) {
  if (p.form != ProblemForm::kGlobal) return;
  const Eigen::SparseMatrix<double, Eigen::RowMajor> rows = p.J;
  keys_.reserve(p.constraints.size());
  for (const Constraint& c : p.constraints) {
    std::vector<int> key{static_cast<int>(c.type)};
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, c.row); it; ++it)
      if (it.value() != 0.0) key.push_back(static_cast<int>(it.col()));
    std::sort(key.begin() + 1, key.end());
    keys_.push_back(std::move(key));
  }
}

WarmStart CarryOver(const ContactProblem& prev, const ConstraintKeys& prev_keys,
                    const WarmStart& prev_solution, const ContactProblem& next,
                    const ConstraintKeys& next_keys) {
  WarmStart w;
  if (prev_solution.v.size() == next.num_dofs()) w.v = prev_solution.v;
  w.lambda = Vec::Zero(next.num_rows());
  if (prev_solution.lambda.size() != prev.num_rows() || prev_keys.keys().empty()) return w;
  std::map<std::vector<int>, std::vector<int>> unused;  // key → previous constraints, in order
  for (int i = static_cast<int>(prev_keys.keys().size()) - 1; i >= 0; --i)
    unused[prev_keys.keys()[i]].push_back(i);
  for (std::size_t i = 0; i < next.constraints.size() && i < next_keys.keys().size(); ++i) {
    auto it = unused.find(next_keys.keys()[i]);
    if (it == unused.end() || it->second.empty()) continue;
    const Constraint& from = prev.constraints[it->second.back()];
    it->second.pop_back();
    const Constraint& to = next.constraints[i];
    for (int k = 0; k < to.rows(); ++k) w.lambda[to.row + k] = prev_solution.lambda[from.row + k];
  }
  return w;
}

}  // namespace ncp
