// Spring-damper ("penalty") contact, the baseline of 002 §V-B (its ref. [22], Yamane and
// Nakamura): each contact point pushes back with f_n = max(0, −k_n g − c_n u_n) while it
// penetrates (gap g < 0), and is held tangentially by a spring anchored where it touched down,
// f_t = −k_t s − c_t u_t, capped by the Coulomb cone |f_t| ≤ μ f_n (on slip the anchor follows
// the point so the spring holds exactly μ f_n). The forces come from the state at the start of
// the step (explicit) and the velocity from A v̂ = b + dt Jᵀ f, the positions from v̂ (the
// system's own update): no complementarity problem is solved, which is the point of the
// comparison — the contact only holds as well as the gains allow.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/physics/geometry.h"

namespace ncp::physics {

struct PenaltyGains {
  double kn = 0.0, cn = 0.0;  // normal stiffness [N/m] and damping [N·s/m], per contact point
  double kt = 0.0, ct = 0.0;  // tangential anchor spring and damping, per contact point
  PenaltyGains Scaled(double s) const { return {s * kn, s * cn, s * kt, s * ct}; }
};

// Throws ncp::Error naming the field when a gain is negative or non-finite.
void ValidatePenaltyGains(const PenaltyGains& g);

class PenaltyContact {
 public:
  explicit PenaltyContact(PenaltyGains g);

  // v̂ of one step of the global problem `p` (contacts only: other constraint rows are an error)
  // whose contact points are `contacts` (same order) at the system's velocity `v`. Contact i's
  // anchor is kept from the previous step while the number of contacts is unchanged (a scene
  // whose contact set is fixed, such as a box on the floor); a different count restarts them.
  Vec Step(const ContactProblem& p, const std::vector<ContactPoint>& contacts, const Vec& v);

 private:
  PenaltyGains g_;
  std::vector<Eigen::Vector2d> anchor_;  // tangential spring extension s per contact [m]
  std::vector<bool> touching_;
};

}  // namespace ncp::physics
