// Warm start of a simulation step from the previous one (002 §V-A5): the velocity is carried over
// when the dofs are the same, and each constraint's multipliers when the previous step had a
// constraint of the same type on the same columns of J (the same node or body pair) — "the
// contact index overlapping the previous step". Constraints without a match start from zero.
#pragma once

#include <map>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/solver.h"

namespace ncp {

// Constraint identity across steps: type and the sorted columns its first row touches.
class ConstraintKeys {
 public:
  explicit ConstraintKeys(const ContactProblem& p);
  const std::vector<std::vector<int>>& keys() const { return keys_; }

 private:
  std::vector<std::vector<int>> keys_;  // per constraint: type, then columns
};

WarmStart CarryOver(const ContactProblem& prev, const ConstraintKeys& prev_keys,
                    const WarmStart& prev_solution, const ContactProblem& next,
                    const ConstraintKeys& next_keys);

}  // namespace ncp
