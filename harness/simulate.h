// Steps a scene with a registered solver (fixed iteration budget per step), records problems
// with a high-accuracy reference solution, and collects per-step statistics.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/run_record.h"
#include "problems/model/contact_problem.h"
#include "problems/physics/xpbd_stepper.h"
#include "solvers/solver.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {

struct SimulateOptions {
  std::string solver = "admm-full";
  std::vector<std::string> sets;  // "solver.key=value"
  int iters = 200;                // solver iterations per step
  double step_tol = 0.0;          // a step's solve stops early at this res004 (0: never)
  int step_tol_every = 1;         // ... tested every this many iterations
  // ... or once its velocity moves less than this, relative to itself, from one test to the next
  // (Budget::step_tol, 002's residual; 0: never)
  double v_step_tol = 0.0;
  int steps = 0;             // 0: the scene's default
  double dt = 0.0;           // 0: the scene's default (1/240 s; FEM scenes 1/60 s)
  int every = 0;             // record every K steps (0: none)
  int max_frames = 1 << 30;  // stop recording after this many frames
  // Solver threads of every step's solve (OpenMP and OpenBLAS): 1 gives the same frames on every
  // machine (a parallel reduction's rounding depends on the thread count) and keeps idle BLAS
  // threads from spinning; 0 leaves the environment's count (OMP_NUM_THREADS).
  int threads = 1;
  // Reference solutions: each solver in turn until one reaches reference_tol; the most
  // accurate result is kept and named in the problem. Empty: frames without a reference.
  std::vector<std::string> reference_solvers = {"admm-full", "pgs"};
  int reference_iters = 20000;
  double reference_tol = 1e-10;  // res004 the reference solve stops at
  bool quiet = false;
  // Keep, for every recorded frame, the warm start carried over from the previous step's solve
  // (002 §V-A5; harness/warm_carry.h) in SimulateResult::warm.
  bool keep_warm = false;
  // Start each step's solve from the previous step's solution carried over the same way (λ per
  // matching constraint, v where the dofs agree) instead of from zero: a simulator's warm start,
  // and 003 Alg. 2/3's friction force cached across steps.
  bool warm_steps = false;
  // Called after every step's solve with the step's problem and solution (v̂, λ), before the
  // state advances: per-step observations a protocol needs (e.g. joint slip rates, 003 Fig. 5).
  std::function<void(const ContactProblem&, const WarmStart&)> on_step;
  // Called after every step's Advance with the system: observations of the state a step leaves
  // (e.g. a coupling's force, 002 Table VIII).
  std::function<void(const physics::SteppedSystem&)> after_step;
};

struct StepStats {
  int step = 0;
  double time = 0.0;
  int contacts = 0;  // contact constraints and spline self-contacts (frictionless rows)
  int constraints = 0;
  double max_penetration = 0.0;  // max(0, −gap) over the step's contacts [m]
  double res004 = 0.0;           // of the step's solve, by the evaluator
  double build_ms = 0.0;         // BuildProblem: collision detection and the problem's assembly
  double solve_ms = 0.0;
  int iterations = 0;  // of the step's solve
  Outcome status = Outcome::kFailed;
};

struct SimulateResult {
  std::vector<StepStats> steps;
  std::vector<ContactProblem> recorded;
  std::vector<WarmStart> warm;  // with keep_warm: one per recorded frame
  std::map<std::string, double> params;
  std::vector<physics::Pose> final_poses;  // world pose of every rigid body after the last step
};

// Options that step with `solver` at `iters` iterations a step for `steps` steps (0: the scene's
// default), without progress lines or reference solves: a simulation run for its trajectory.
SimulateOptions SteppingOptions(const std::string& solver, int iters, int steps = 0);

// The scene's own reference solvers and iterations (SceneEntry::reference_*), where it sets them,
// over `sim`'s: what `generate` and `simulate` use for recorded frames.
void UseSceneReferences(const SceneEntry& scene, SimulateOptions& sim);

// Throws ncp::Error naming the option when steps, dt or every is out of range.
void ValidateSteps(const SimulateOptions& opt);
// The scene built from `params` over its defaults (recorded in res.params), with opt.dt applied:
// what Simulate and SimulatePbd step.
Scene BuildForSteps(const SceneEntry& scene, const ParamMap& params, std::uint64_t seed,
                    const SimulateOptions& opt, SimulateResult& res);

SimulateResult Simulate(const SceneEntry& scene, const ParamMap& params, std::uint64_t seed,
                        const SimulateOptions& opt);

// The same scene stepped by position-based dynamics (physics::XpbdStepper) instead of a solver:
// no problem is formed, so nothing is recorded (opt.every > 0 is an error) and opt's solver
// fields are unused. Each StepStats has the step's contacts and penetration at its start,
// solve_ms = the PBD step (collision and substeps), iterations = substeps × passes, status
// max-iterations (a fixed budget), res004 NaN. Throws ncp::Error naming the scene when it is not
// one of free bodies (FEM scenes, articulated robots) and on a bad option.
SimulateResult SimulatePbd(const SceneEntry& scene, const ParamMap& params, std::uint64_t seed,
                           const SimulateOptions& opt, const physics::XpbdOptions& pbd);

// What `generate` makes of a name: `count` problems of a generator (problems/scenarios), or, for a
// scene (looked up first), `count` frames, one every default_every steps, stepped by the scene's
// own stepper where it names one (else admm-full at 200 iterations a step). With `references`,
// each frame carries a reference solution from the scene's reference solvers (a sweep measures
// time and leaves them out: their solves would dominate).
std::vector<ContactProblem> GenerateProblems(const std::string& name, const ParamMap& params,
                                             int count, std::uint64_t seed, bool references,
                                             bool quiet);
// Checks what GenerateProblems would reject in its arguments (the name, the parameters' names,
// numbers and ranges, a seed range that wraps) without generating anything, so that a command
// can refuse them before it creates folders or takes locks. Throws Error.
void CheckGenerateArguments(const std::string& name, const ParamMap& params, int count,
                            std::uint64_t seed);

// The most problems one `generate` or sweep point builds: they are held in memory before the
// file is written. Throws Error "<option> = N: must be in [1, max] …" outside [1, max].
constexpr int kMaxGeneratedProblems = 100000;
void CheckProblemCount(const char* option, int count);

}  // namespace ncp
