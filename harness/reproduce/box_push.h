// A box pushed along the floor (scene box_push, 002 §V-B) stepped by one contact model, and its
// path against the exact solution of the same time discretisation (v_{k+1} = v_k + dt a,
// x_{k+1} = x_k + dt v_{k+1}, a = max(0, F/m − μ g)): the error is the contact model's alone.
// The steppers: a registered solver on the step's problem or on COND's formulation of it (002:15,
// virtual nodes with gain γ), and the spring-damper penalty model (physics/penalty_contact.h).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/physics/geometry.h"
#include "problems/physics/penalty_contact.h"

namespace ncp {

// The path of one contact model against the exact one, per axis, and how the box behaved.
struct PushRun {
  double err[3] = {0, 0, 0};  // max |position − exact| over the steps, x y z [m]
  double tilt = 0;            // max rotation angle [rad]
  int airborne = 0;           // steps after which every bottom corner is above the floor
  double iterations = 0;      // per step (solvers only)
  int unconverged = 0;        // steps whose solve ended above its tolerance (solvers only)
  double worst_res = 0;       // largest final res004 of a step's solve (solvers only)
  bool diverged = false;      // a step failed (non-finite state, a solver that diverged)
  double Worst() const;       // the largest axis error; +inf when diverged
};

// One step's v̂ from the problem, its contact points and the system's velocity.
using PushStepper = std::function<Vec(
    const ContactProblem&, const std::vector<physics::ContactPoint>&, const Vec&, PushRun&)>;

// The box_push scene's parameters at time step dt, its defaults otherwise.
std::map<std::string, double> BoxPushParams(double dt);

// `duration` seconds of box_push at time step dt, each step's v̂ from `step`.
PushRun Push(double dt, double duration, const PushStepper& step);

// A registered solver each step, warm-started from the previous step's (v̂, λ) as 002 §V-A5 runs
// COND. With gamma > 0 it solves COND's formulation instead of the original problem (the
// nodalized problem of 002:15 over v and the virtual nodes, cond::NodalizedProblem), so that its
// res004 measures how far a step is from the formulation's own solution. With tol > 0, v̂ is the
// velocity the residual judged, A v̂ = b + Jᵀλ; with tol = 0 (a fixed budget), the solver's own.
struct StepSolve {
  std::string solver;
  std::vector<std::string> sets;
  int iters = 0;
  double tol = 0.0;
  double gamma = 0.0;  // > 0: solve the nodalized problem
};
PushStepper SolverStepper(const StepSolve& how);

// Penalty1 at stiffness k: k per corner in both directions, critically damped for the corner's
// share of the mass (c = 2 √(k m / 4)); Penalty2 is its Scaled(10).
physics::PenaltyGains PenaltyOne(double k, double mass);
PushStepper PenaltyStepper(const physics::PenaltyGains& gains);

}  // namespace ncp
