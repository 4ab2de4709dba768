#include "solvers/pgs/colouring.h"

namespace ncp {

Colouring ColourConstraints(const SpMat& W, const std::vector<Constraint>& cs) {
  const int nc = static_cast<int>(cs.size());
  std::vector<int> owner(W.rows(), -1), colour(nc, -1), seen;
  for (int i = 0; i < nc; ++i)
    for (int k = 0; k < cs[i].rows(); ++k) owner[cs[i].row + k] = i;
  // Both directions: a local W that is not symmetric couples i to j when either row reads the
  // other's λ (W's column r holds what row r reads, its transpose who reads row r).
  const SpMat Wt = W.transpose();
  // seen[c] == i: a neighbour of constraint i has colour c (no clearing between constraints).
  int colours = 0;
  for (int i = 0; i < nc; ++i) {
    for (int k = 0; k < cs[i].rows(); ++k)
      for (const SpMat* M : {&W, &Wt})
        for (SpMat::InnerIterator it(*M, cs[i].row + k); it; ++it) {
          const int j = owner[it.index()];
          if (j >= 0 && j != i && colour[j] >= 0) seen[colour[j]] = i;
        }
    int c = 0;
    while (c < colours && seen[c] == i) ++c;
    if (c == colours) seen.push_back(-1), ++colours;
    colour[i] = c;
  }
  Colouring out;
  out.begin.assign(colours + 1, 0);
  for (int i = 0; i < nc; ++i) ++out.begin[colour[i] + 1];
  for (int c = 0; c < colours; ++c) out.begin[c + 1] += out.begin[c];
  out.order.resize(nc);
  std::vector<int> next(out.begin.begin(), out.begin.end() - 1);
  for (int i = 0; i < nc; ++i) out.order[next[colour[i]]++] = i;
  return out;
}

}  // namespace ncp
