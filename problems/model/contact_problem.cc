#include "problems/model/contact_problem.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace ncp {

const char* ToString(ConstraintType t) {
  switch (t) {
    case ConstraintType::kContact:
      return "contact";
    case ConstraintType::kUnilateral:
      return "unilateral";
    case ConstraintType::kBilateral:
      return "bilateral";
    case ConstraintType::kSoft:
      return "soft";
    case ConstraintType::kJointFriction:
      return "joint-friction";
  }
  return "unknown";
}

bool Structure::IsTree(int j) const {
  bool any = false;
  for (const Body& b : bodies) {
    if (b.subsystem != j) continue;
    if (!b.has_tree()) return false;
    any = true;
  }
  return any;
}

int ContactProblem::num_rows() const {
  if (constraints.empty()) return 0;
  const Constraint& last = constraints.back();
  // Saturated: a corrupt file's last row near INT_MAX must not overflow (Validate refuses it).
  const std::int64_t rows = static_cast<std::int64_t>(last.row) + last.rows();
  return static_cast<int>(std::clamp<std::int64_t>(rows, 0, std::numeric_limits<int>::max()));
}

int ContactProblem::num_contacts() const {
  int n = 0;
  for (const Constraint& c : constraints) n += c.type == ConstraintType::kContact;
  return n;
}

int AddConstraint(std::vector<Constraint>& cs, ConstraintType type, double mu, double stiffness,
                  double damping) {
  Constraint c;
  c.type = type;
  c.row = cs.empty() ? 0 : cs.back().row + cs.back().rows();
  c.mu = mu;
  c.stiffness = stiffness;
  c.damping = damping;
  cs.push_back(c);
  return static_cast<int>(cs.size()) - 1;
}

}  // namespace ncp
