// What the simulation harness steps: a system that builds the frozen ContactProblem of its current
// state and advances with the solver's velocity v̂. MultibodySystem (rigid and articulated bodies)
// and DeformableSystem (co-rotational FEM) implement it.
#pragma once

#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/physics/geometry.h"

namespace ncp::physics {

struct StepOptions {
  double dt = 1.0 / 240.0;
  double theta = 0.0;  // θ of 004:2, in [0, 1)
  Vec3 gravity = Vec3(0, 0, -9.81);
  double margin = 0.005;       // contacts are created below this gap [m]
  double slop = 2e-4;          // resting penetration allowed [m]
  double erp = 0.5;            // fraction of the penetration beyond slop removed per step
  double limit_margin = 0.02;  // joint-limit rows within this distance of a limit [rad or m]
};

// Throws ncp::Error naming the field on a bad value.
void ValidateStepOptions(const StepOptions& o);

// Normal bias of a contact (or unilateral row) with gap g: e = (g + slop)/dt when g + slop ≥ 0
// (speculative: closes at most the gap in one step), else erp (g + slop)/dt.
double StabilizeGap(double gap, const StepOptions& o);

class SteppedSystem {
 public:
  virtual ~SteppedSystem() = default;
  // The problem at the current state; `contacts` receives the contact points: one per contact
  // constraint, in their order, then the spline self-contacts (ContactPoint::spline_body ≥ 0) in
  // the order of their unilateral rows.
  virtual ContactProblem BuildProblem(std::vector<ContactPoint>* contacts = nullptr) = 0;
  // Advances the state with the solution v̂ of the last BuildProblem.
  virtual void Advance(const Vec& vhat) = 0;
  virtual double time() const = 0;
  virtual const StepOptions& options() const = 0;
  // Takes effect from the next BuildProblem (e.g. another dt). Throws ncp::Error on a bad value.
  virtual void set_options(const StepOptions& opt) = 0;
};

}  // namespace ncp::physics
