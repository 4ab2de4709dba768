// Â x for the nodalized matrix with rows taken three at a time. Nodal dofs come in triples (x, y,
// z of a node; a rigid body's 6 dofs are two triples) whose rows share one sparsity pattern, so a
// triple stores its column indices once and its three values per column side by side: one index
// and one load of x serve three products. Rows that do not form such a triple (virtual nodes,
// mixed patterns) are groups of one.
//
// The product streams the matrix once per V-FPI iteration and is bound by memory bandwidth, so
// on one thread only the upper triangle is stored (each group's diagonal block and the columns
// after it) and every off-diagonal entry is used twice, y_i += a_ij x_j and y_j += a_ij x_i: half
// the bytes. Threads would race on those scattered y_j, so with several the full rows are kept
// and each thread writes only its own rows.
#pragma once

#include <vector>

#include "solvers/common/dual_update.h"
#include "solvers/solver.h"

namespace ncp::cond {

class RowGroups {
 public:
  // Â symmetric, column-major (column i = row i). `upper`: store the upper triangle (serial
  // product) instead of full rows (parallel product).
  void Build(const SpMat& A, bool upper);
  // y = Â x. No allocation.
  void Multiply(const Vec& x, Vec& y) const;
  int grouped_rows() const { return grouped_rows_; }
  // One Multiply(): the stored groups (values, indices, group records) and x and y once each; 2
  // flops per product an entry serves (the upper form's entries past a diagonal block serve
  // two), so both forms count the same flops.
  WorkCount MultiplyWork() const;

 private:
  void MultiplyUpper(const Vec& x, Vec& y) const;
  void MultiplyFull(const Vec& x, Vec& y) const;

  bool upper_ = false;
  int n_ = 0, grouped_rows_ = 0;
  std::vector<int> group_row_;    // first row of each group
  std::vector<char> group_size_;  // 3 (a triple) or 1
  std::vector<int> start_;        // entries of group g: [start_[g], start_[g+1])
  std::vector<int> index_;        // column of each entry
  std::vector<double> value_;  // group_size_ values per entry (rows r…r+size−1), at offset_[g]
  std::vector<std::size_t> offset_;
};

}  // namespace ncp::cond
