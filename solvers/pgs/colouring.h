// A greedy colouring of the constraint graph of W (two constraints are adjacent when W couples a
// row of one with a row of the other, in either direction), for Gauss–Seidel sweeps whose colours
// run in parallel.
#pragma once

#include <vector>

#include "problems/model/contact_problem.h"

namespace ncp {

struct Colouring {
  std::vector<int> order;  // constraint indices, colour by colour, in constraint order within
  std::vector<int> begin;  // colour k is order[begin[k] .. begin[k + 1])
  int colours() const { return static_cast<int>(begin.size()) - 1; }
};

// In constraint order, each constraint takes the smallest colour none of its neighbours has yet:
// deterministic, and at most (largest degree + 1) colours.
Colouring ColourConstraints(const SpMat& W, const std::vector<Constraint>& cs);

}  // namespace ncp
