// Â x for the nodalized matrix with rows taken three at a time. Nodal dofs come in triples (x, y,
// z of a node; a rigid body's 6 dofs are two triples) whose rows share one sparsity pattern, so a
// triple stores its column indices once and its three values per column side by side: one index
// and one load of x serve three products, which cuts the memory traffic of the product (the cost
// of a V-FPI iteration) by about a quarter. Rows that do not form such a triple (virtual nodes,
// mixed patterns) keep the plain sparse row.
#pragma once

#include <vector>

#include "solvers/common/dual_update.h"

namespace ncp::cond {

class RowGroups {
 public:
  // Â symmetric, column-major (column i = row i).
  void Build(const SpMat& A);
  // y = Â x; rows in parallel when large. No allocation.
  void Multiply(const Vec& x, Vec& y) const;
  int grouped_rows() const { return 3 * static_cast<int>(triple_row_.size()); }

 private:
  const SpMat* A_ = nullptr;
  std::vector<int> triple_row_;     // first row of each triple
  std::vector<int> triple_start_;   // entries of triple t: [triple_start_[t], triple_start_[t+1])
  std::vector<int> index_;          // column of each entry
  std::vector<double> value_;       // 3 values per entry: rows r, r+1, r+2
  std::vector<int> single_row_;     // rows multiplied from A_ directly
};

}  // namespace ncp::cond
