#include "harness/simulate.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <cmath>
#include <limits>
#include <cstdio>
#include <fmt/format.h>

#include "common/error.h"
#include "harness/metrics/evaluator.h"
#include "harness/progress.h"
#include "harness/runner.h"
#include "harness/thread_limits.h"
#include "harness/warm_carry.h"
#include "problems/model/validate.h"
#include "problems/scenarios/scenarios.h"

namespace ncp {
namespace {

// Solves p with `job` until `tol` (res004) or `iters`; returns (v̂, λ) and the run record.
RunRecord Solve(const ContactProblem& p, const SolverJob& job, int iters, double tol,
                double v_step_tol, int tol_every, const WarmStart* warm, WarmStart& out) {
  const Evaluator ev(p);
  RunOptions ro;
  ro.budget.iters = iters;
  ro.budget.tol = tol;
  ro.budget.step_tol = v_step_tol;
  ro.tol_every = tol_every;
  return RunOne(p, ev, job, ro, warm, 0, &out);
}

}  // namespace

SimulateOptions SteppingOptions(const std::string& solver, int iters, int steps) {
  SimulateOptions sim;
  sim.solver = solver;
  sim.iters = iters;
  sim.steps = steps;
  sim.reference_solvers = {};
  sim.quiet = true;
  return sim;
}

void UseSceneReferences(const SceneEntry& scene, SimulateOptions& sim) {
  if (scene.reference_iters > 0) sim.reference_iters = scene.reference_iters;
  if (!scene.reference_solvers.empty()) sim.reference_solvers = scene.reference_solvers;
}

void CheckProblemCount(const char* option, int count) {
  if (count < 1 || count > kMaxGeneratedProblems)
    throw Error(
        fmt::format("{} = {}: must be in [1, {}] (the problems are built in memory "
                    "before writing; generate larger sets in several files)",
                    option, count, kMaxGeneratedProblems));
}

std::vector<ContactProblem> GenerateProblems(const std::string& name, const ParamMap& params,
                                             int count, std::uint64_t seed, bool references,
                                             bool quiet) {
  CheckGenerateArguments(name, params, count, seed);
  const SceneEntry* scene = FindScene(name);
  if (!scene) return FindScenario(name).generate(params, count, seed);
  SimulateOptions sim;
  if (!scene->stepper.empty()) sim.solver = scene->stepper, sim.iters = scene->stepper_iters;
  sim.every = scene->default_every;
  sim.steps = count * sim.every;
  sim.max_frames = count;
  sim.quiet = quiet;
  if (references)
    UseSceneReferences(*scene, sim);
  else
    sim.reference_solvers = {};
  return Simulate(*scene, params, seed, sim).recorded;
}

void CheckGenerateArguments(const std::string& name, const ParamMap& params, int count,
                            std::uint64_t seed) {
  if (const SceneEntry* scene = FindScene(name)) {
    SceneParams(*scene, params);
    return;
  }
  // Problem i uses seed + i: past 2⁶⁴ − 1 it would wrap to seed 0 and repeat problems.
  if (count > 1 && seed > std::numeric_limits<std::uint64_t>::max() - (count - 1))
    throw Error(
        fmt::format("seed = {}: with {} problems (problem i uses seed + i) it must be at "
                    "most 2^64 - {}",
                    seed, count, count));
  FindScenario(name).generate(params, 0, seed);  // zero problems: parses and checks only
}

void ValidateSteps(const SimulateOptions& opt) {
  if (opt.steps < 0) throw Error(fmt::format("--steps = {}: must be >= 0", opt.steps));
  if (!(opt.dt >= 0 && opt.dt <= 0.1))
    throw Error(fmt::format("--dt = {}: must be in (0, 0.1] (0: the scene's default)", opt.dt));
  if (opt.every < 0) throw Error(fmt::format("--every = {}: must be >= 0", opt.every));
}

Scene BuildForSteps(const SceneEntry& scene, const ParamMap& params, std::uint64_t seed,
                    const SimulateOptions& opt, SimulateResult& res) {
  res.params = SceneParams(scene, params);
  Scene sc = scene.build(res.params, seed);
  if (opt.dt > 0) {
    physics::StepOptions so = sc.stepped().options();
    so.dt = opt.dt;
    sc.stepped().set_options(so);
  }
  return sc;
}

SimulateResult Simulate(const SceneEntry& scene, const ParamMap& params, std::uint64_t seed,
                        const SimulateOptions& opt) {
  if (opt.iters < 1) throw Error(fmt::format("--iters = {}: must be >= 1", opt.iters));
  if (!(opt.step_tol >= 0))
    throw Error(fmt::format("step tolerance = {}: must be >= 0", opt.step_tol));
  if (!(opt.v_step_tol >= 0 && opt.v_step_tol < 1))
    throw Error(fmt::format("velocity step tolerance = {}: must be in [0, 1)", opt.v_step_tol));
  ValidateSteps(opt);
  if (opt.threads < 0 || opt.threads > 1024)
    throw Error(
        fmt::format("--threads = {}: must be in [0, 1024] (0: OMP_NUM_THREADS)", opt.threads));
  const SolverThreadScope thread_scope(opt.threads);
  const std::vector<SolverJob> jobs = MakeSolverJobs({opt.solver}, opt.sets);
  const std::vector<SolverJob> ref = opt.reference_solvers.empty()
                                         ? std::vector<SolverJob>{}
                                         : MakeSolverJobs(opt.reference_solvers, {});
  SimulateResult res;
  Scene sc = BuildForSteps(scene, params, seed, opt, res);
  physics::SteppedSystem& sys = sc.stepped();
  const int steps = opt.steps > 0 ? opt.steps : scene.default_steps;
  std::vector<physics::ContactPoint> contacts;
  // The previous step's problem (J and constraints only), its keys and solution, for keep_warm
  // and warm_steps.
  const bool carry = opt.keep_warm || opt.warm_steps;
  ContactProblem prev;
  std::unique_ptr<ConstraintKeys> prev_keys;
  WarmStart prev_sol;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  for (int k = 0; k < steps; ++k) {
    if (sc.before_step && sc.system) sc.before_step(*sc.system);
    const Clock::time_point built = Clock::now();
    ContactProblem p = sys.BuildProblem(&contacts);
    const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - built).count();
    p.meta.name = fmt::format("{}-step{:05d}", scene.name, k);
    p.meta.scenario = scene.name;
    p.meta.step = k;
    if (const std::string err = ValidateFinite(p); !err.empty())
      throw Error(fmt::format("{}: step {}: {}", scene.name, k, err));
    StepStats st;
    st.step = k;
    st.time = sys.time();
    // Contact constraints and spline self-contacts (frictionless rows) alike.
    st.contacts = p.num_contacts() +
                  static_cast<int>(std::count_if(contacts.begin(), contacts.end(),
                                                 [](const auto& c) { return c.spline_body >= 0; }));
    st.constraints = p.num_constraints();
    st.build_ms = build_ms;
    for (const auto& c : contacts) st.max_penetration = std::max(st.max_penetration, -c.gap);
    std::unique_ptr<ConstraintKeys> keys;
    WarmStart carried;
    if (carry) {
      keys = std::make_unique<ConstraintKeys>(p);
      if (prev_keys) carried = CarryOver(prev, *prev_keys, prev_sol, p, *keys);
    }
    WarmStart sol;
    const RunRecord r =
        Solve(p, jobs[0], opt.iters, opt.step_tol, opt.v_step_tol, opt.step_tol_every,
              opt.warm_steps && prev_keys ? &carried : nullptr, sol);
    st.solve_ms = r.total_time_s * 1e3;  // setup + iterations; evaluation excluded
    st.status = r.status;
    st.iterations = r.iterations;
    st.res004 = r.final_metrics[Metric::kRes004];
    if (r.status == Outcome::kDiverged || r.status == Outcome::kFailed ||
        sol.v.size() != p.num_dofs())
      throw Error(fmt::format("{}: step {}: solver '{}' ended {}: {}", scene.name, k, opt.solver,
                              ToString(r.status), r.message));
    const bool record = opt.every > 0 && (k + 1) % opt.every == 0 &&
                        static_cast<int>(res.recorded.size()) < opt.max_frames;
    if (record) {
      Reference best;
      best.res004 = std::numeric_limits<double>::infinity();
      for (const SolverJob& job : ref) {
        WarmStart refsol;
        const RunRecord rr =
            Solve(p, job, opt.reference_iters, opt.reference_tol, 0.0, 1, nullptr, refsol);
        const double res = rr.final_metrics[Metric::kRes004];
        if (res < best.res004 && refsol.v.size() == p.num_dofs())
          best = Reference{refsol.v, refsol.lambda,
                           fmt::format("{} ({} iterations, stop at res004 {:g})", job.entry->name,
                                       rr.iterations, opt.reference_tol),
                           res};
        if (res <= opt.reference_tol) break;
      }
      // The reference is the most accurate solution at hand: the step's own solve when the
      // reference solvers stalled above it.
      if (!ref.empty() && st.res004 < best.res004)
        best = Reference{
            sol.v, sol.lambda,
            fmt::format("{} (the step's own solve, {} iterations)", opt.solver, r.iterations),
            st.res004};
      if (!ref.empty() && !std::isfinite(best.res004))
        throw Error(
            fmt::format("{}: step {}: no reference solution could be computed", scene.name, k));
      if (!ref.empty()) p.reference = best;
      if (std::isfinite(st.res004)) p.meta.params["step_solver_res004"] = st.res004;
      p.meta.seed = seed;
      p.meta.generator_version = 1;
      std::string case_name;
      for (const auto& [key, v] : res.params) {
        p.meta.params[key] = v;
        case_name += fmt::format("{}{}={:g}", case_name.empty() ? "" : " ", key, v);
      }
      p.meta.case_name = case_name;
      if (opt.keep_warm) res.warm.push_back(carried);
      res.recorded.push_back(std::move(p));
    }
    if (carry) {
      const ContactProblem& last = record ? res.recorded.back() : p;
      prev_keys = std::move(keys);
      prev.J = last.J;
      prev.constraints = last.constraints;
      prev_sol = sol;
    }
    if (opt.on_step) opt.on_step(record ? res.recorded.back() : p, sol);
    sys.Advance(sol.v);
    if (opt.after_step) opt.after_step(sys);
    if (!opt.quiet && (k % 24 == 23 || k + 1 == steps)) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      std::fprintf(stderr, "[%s] %s; t=%.3fs contacts=%d penetration=%.2gmm res004=%.2g\n",
                   scene.name.c_str(), ProgressText(k + 1, steps, elapsed, "steps").c_str(),
                   sys.time(), st.contacts, st.max_penetration * 1e3, st.res004);
    }
    res.steps.push_back(st);
  }
  if (sc.system)
    for (int b = 0; b < sc.system->num_bodies(); ++b)
      res.final_poses.push_back(sc.system->BodyPose(b));
  return res;
}

}  // namespace ncp
