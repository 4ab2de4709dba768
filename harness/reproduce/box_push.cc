#include "harness/reproduce/box_push.h"

#include <fmt/format.h>

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <memory>

#include "common/error.h"
#include "harness/metrics/evaluator.h"
#include "harness/runner.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/cond/nodalization.h"

namespace ncp {

double PushRun::Worst() const { return diverged ? INFINITY : std::max({err[0], err[1], err[2]}); }

std::map<std::string, double> BoxPushParams(double dt) {
  const SceneEntry* e = FindScene("box_push");
  if (!e) throw Error("box_push: scene 'box_push' not found");
  return SceneParams(*e, {{"dt", fmt::format("{:g}", dt)}});
}

PushRun Push(double dt, double duration, const PushStepper& step) {
  const std::map<std::string, double> p = BoxPushParams(dt);
  Scene sc = FindScene("box_push")->build(p, 1);
  physics::MultibodySystem& s = *sc.system;
  const double h = 0.5 * p.at("size"), m = p.at("mass"), g = -s.options().gravity.z();
  const double a = std::max(0.0, p.at("force") / m - p.at("mu") * g);
  const int steps = static_cast<int>(std::lround(duration / dt));
  PushRun run;
  std::vector<physics::ContactPoint> contacts;
  for (int k = 1; k <= steps; ++k) {
    const ContactProblem prob = s.BuildProblem(&contacts);
    Vec v(s.num_dofs());
    for (const physics::Instance& in : s.instances()) v.segment(in.v_offset, in.v.size()) = in.v;
    Vec vhat;
    try {
      vhat = step(prob, contacts, v, run);
    } catch (const Error&) {
      run.diverged = true;
    }
    if (run.diverged || !vhat.allFinite()) {
      run.diverged = true;
      break;
    }
    s.Advance(vhat);
    const physics::Pose& T = s.BodyPose(0);
    const Eigen::Vector3d exact(0.5 * a * dt * dt * k * (k + 1), 0, h);
    if (!T.translation().allFinite()) {
      run.diverged = true;
      break;
    }
    for (int i = 0; i < 3; ++i)
      run.err[i] = std::max(run.err[i], std::abs(T.translation()[i] - exact[i]));
    run.tilt = std::max(run.tilt, Eigen::AngleAxisd(T.linear()).angle());
    double lowest = INFINITY;
    for (int c = 0; c < 4; ++c)
      lowest = std::min(lowest, (T * Eigen::Vector3d((c & 1) ? h : -h, (c & 2) ? h : -h, -h)).z());
    if (lowest > 0) ++run.airborne;
  }
  run.iterations /= std::max(1, steps);
  return run;
}

PushStepper SolverStepper(const StepSolve& how) {
  const SolverJob job = MakeSolverJobs({how.solver}, how.sets).front();
  auto last = std::make_shared<WarmStart>();
  return [job, how, last](const ContactProblem& p, const std::vector<physics::ContactPoint>&,
                          const Vec&, PushRun& run) {
    cond::Nodalization nd;
    ContactProblem nodal;
    if (how.gamma > 0) {
      nd = cond::Nodalize(p, how.gamma);
      nodal = cond::NodalizedProblem(p, nd);
    }
    const ContactProblem& q = how.gamma > 0 ? nodal : p;
    const Evaluator ev(q);
    RunOptions ro;
    ro.budget.iters = how.iters;
    ro.budget.tol = how.tol;
    WarmStart out;
    const bool warm = last->v.size() == q.num_dofs() && last->lambda.size() == q.num_rows();
    const RunRecord r = RunOne(q, ev, job, ro, warm ? last.get() : nullptr, 0, &out);
    run.iterations += r.iterations;
    const double res = r.final_metrics[Metric::kRes004];
    run.worst_res = std::max(run.worst_res, std::isfinite(res) ? res : INFINITY);
    if (how.tol > 0 && !(res <= how.tol)) ++run.unconverged;
    if (r.status == Outcome::kDiverged || r.status == Outcome::kFailed) run.diverged = true;
    *last = out;
    Vec v = out.v;
    if (how.tol > 0 && out.lambda.size() == q.num_rows()) {
      // The velocity the residual judged: A v̂ = b + Jᵀλ. A solver that iterates v itself can
      // stop on λ's residual before its v has caught up (warm-started COND stops at its first
      // iteration when the previous λ already solves the step, with v still the previous one).
      const Eigen::SimplicialLDLT<SpMat> llt(q.A);
      v = llt.solve(q.b + q.J.transpose() * out.lambda);
    }
    return how.gamma > 0 ? Vec(v.head(nd.n)) : v;
  };
}

physics::PenaltyGains PenaltyOne(double k, double mass) {
  const double c = 2 * std::sqrt(k * mass / 4);
  return {k, c, k, c};
}

PushStepper PenaltyStepper(const physics::PenaltyGains& gains) {
  auto model = std::make_shared<physics::PenaltyContact>(gains);
  return [model](const ContactProblem& p, const std::vector<physics::ContactPoint>& contacts,
                 const Vec& v, PushRun&) { return model->Step(p, contacts, v); };
}

}  // namespace ncp
