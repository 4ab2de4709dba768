#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <fmt/format.h>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/registry.h"
#include "harness/output_lock.h"
#include "harness/output_path.h"
#include "harness/cli/commands.h"
#include "harness/cli/seed_option.h"
#include "harness/cli/plugin_option.h"
#include "harness/simulate.h"
#include "problems/io/dataset_hdf5.h"
#include "solvers/settings.h"

namespace ncp::cli {
namespace {

double Percentile(std::vector<double> x, double q) {
  if (x.empty()) return 0.0;
  std::sort(x.begin(), x.end());
  return x[static_cast<std::size_t>(q * (x.size() - 1) + 0.5)];
}

void PrintSummary(const SimulateResult& r, double settle_time, const char* stepper) {
  std::vector<double> counts, pen_after;
  double solve_ms = 0;
  for (const StepStats& s : r.steps) {
    counts.push_back(s.contacts);
    solve_ms += s.solve_ms;
    if (s.time >= settle_time) pen_after.push_back(s.max_penetration);
  }
  std::printf("steps: %zu, %s time per step: %.3f ms\n", r.steps.size(), stepper,
              r.steps.empty() ? 0.0 : solve_ms / r.steps.size());
  std::printf("contacts per step: min %.0f, p10 %.0f, median %.0f, p90 %.0f, max %.0f\n",
              Percentile(counts, 0), Percentile(counts, 0.1), Percentile(counts, 0.5),
              Percentile(counts, 0.9), Percentile(counts, 1));
  if (!r.steps.empty())
    std::printf("max penetration at the first step (initial overlap): %.3f mm\n",
                1e3 * r.steps.front().max_penetration);
  if (!pen_after.empty())
    std::printf("max penetration after settling (t >= %.2f s): %.3f mm\n", settle_time,
                1e3 * *std::max_element(pen_after.begin(), pen_after.end()));
  else
    std::printf("max penetration after settling: no step after t = %.2f s\n", settle_time);
}

}  // namespace

void AddSimulate(CLI::App& app, Action& action) {
  auto* cmd =
      app.add_subcommand("simulate", "simulate a scene with a solver; optionally record problems");
  struct Opts {
    std::string scene, record, params;
    SimulateOptions sim;
    std::uint64_t seed = 1;
    double settle = -1.0;                     // < 0: half the simulated time
    physics::XpbdOptions pbd{.substeps = 0};  // 0: step with the solver (--pbd not given)
    std::string friction = "positional";
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("scene", o->scene, "scene name (see `ncpbench list scenarios`)")->required();
  auto* solver = cmd->add_option("--solver", o->sim.solver,
                                 "solver used at every step (default: the scene's stepper, "
                                 "`list scenarios`; admm-full where it has none)");
  auto* sets =
      cmd->add_option("--set", o->sim.sets, "solver setting, e.g. --set admm-full.gamma=5");
  auto* iters = cmd->add_option(
      "--iters", o->sim.iters,
      "solver iterations per step (default: the stepper's count in the scene, else 200)");
  cmd->add_option("--steps", o->sim.steps, "steps (0: the scene's default)");
  cmd->add_option("--threads", o->sim.threads,
                  "solver threads of each step (1: the same frames on every machine; 0: "
                  "OMP_NUM_THREADS)")
      ->capture_default_str();
  auto* warm = cmd->add_flag(
      "--warm", o->sim.warm_steps,
      "start each step's solve from the previous step's solution (default: from zero)");
  cmd->add_option("--dt", o->sim.dt,
                  "time step in s (0: the scene's default: 1/240, FEM scenes 1/60)");
  auto* record =
      cmd->add_option("--record", o->record, "write recorded problems to this dataset (.h5)");
  cmd->add_option("--every", o->sim.every, "record every K steps (default: the scene's spacing)")
      ->check(CLI::Range(1, 1 << 30))
      ->needs(record);
  cmd->add_option("-p,--params", o->params, "scene parameters key=value,...");
  AddSeedOption(cmd, o->seed, "seed of the scene's randomness");
  auto* settle = cmd->add_option(
      "--settle", o->settle,
      "time after which penetration is reported [s] (default: half the simulated time)");
  auto* pbd = cmd->add_option("--pbd", o->pbd.substeps,
                              "step by position-based dynamics with this many substeps a step "
                              "instead of a solver (scenes of free bodies; nothing to record)")
                  ->check(CLI::Range(1, 1000000))
                  ->excludes(solver, sets, iters, warm, record);
  cmd->add_option("--pbd-passes", o->pbd.iterations, "PBD constraint passes a substep")
      ->capture_default_str()
      ->needs(pbd);
  cmd->add_option("--pbd-friction", o->friction,
                  "positional (static friction a positional constraint, as small-steps XPBD) or "
                  "velocity (Coulomb in the velocity pass)")
      ->check(CLI::IsMember({"positional", "velocity"}))
      ->capture_default_str()
      ->needs(pbd);
  cmd->add_flag("-q,--quiet", o->sim.quiet, "no progress lines");
  const auto plugins = AddPluginOption(cmd);  // a plug-in's solver can step a scene too
  cmd->callback([&action, o, plugins, solver, iters, record, settle] {
    action = [o, plugins, given_solver = solver->count() > 0, given_iters = iters->count() > 0,
              given_record = record->count() > 0, given_settle = settle->count() > 0] {
      // The output and the options are checked before the steps, which can take minutes.
      if (given_record) {
        CheckOutputNamed("--record", o->record);
        if (const std::string kind = NonRegularKind(o->record); !kind.empty())
          throw Error(
              fmt::format("--record = {}: is {}: a recording is a dataset file", o->record, kind));
      }
      if (given_settle && !(o->settle >= 0 && std::isfinite(o->settle)))
        throw Error(fmt::format("--settle = {}: must be a finite time >= 0 [s]", o->settle));
      LoadPlugins(*plugins);  // before the solver name resolves
      const SceneEntry* e = &FindByName(Scenes(), o->scene, "scene");
      // The scene's own stepper, as `generate` uses: admm-full cannot step the joint-friction
      // scenes, and steps others less accurately than their stepper.
      if (!given_solver && !e->stepper.empty()) {
        o->sim.solver = e->stepper;
        if (!given_iters) o->sim.iters = e->stepper_iters;
      }
      if (!o->record.empty() && o->sim.every <= 0) o->sim.every = e->default_every;
      if (o->record.empty()) o->sim.every = 0;
      UseSceneReferences(*e, o->sim);
      const bool by_pbd = o->pbd.substeps != 0;
      o->pbd.friction = o->friction == "velocity" ? physics::XpbdFriction::kVelocity
                                                  : physics::XpbdFriction::kPositional;
      const ParamMap params = ParseKeyValues(o->params);
      // Refused before the recording's folder is made: the parameters, the steps, the solver.
      SceneParams(*e, params);
      ValidateSteps(o->sim);
      if (!by_pbd) FindSolver(o->sim.solver);
      // Held from before the steps: a run writing the same path cannot replace the recording.
      std::optional<WholeOutputLock> lock;
      if (given_record) lock.emplace(o->record);
      const SimulateResult r = by_pbd ? SimulatePbd(*e, params, o->seed, o->sim, o->pbd)
                                      : Simulate(*e, params, o->seed, o->sim);
      const double dt = r.steps.size() > 1 ? r.steps[1].time - r.steps[0].time : 0.0;
      PrintSummary(r, o->settle >= 0 ? o->settle : 0.5 * dt * r.steps.size(),
                   by_pbd ? "PBD" : "solver");
      if (!o->record.empty()) {
        if (r.recorded.empty())
          throw Error(
              fmt::format("--record = {}: {} steps recorded no frame (one every {} "
                          "steps): nothing written; give more --steps or a smaller "
                          "--every",
                          o->record, r.steps.size(), o->sim.every));
        CheckWritable(o->record, r.recorded);
        WarnProblemsWithoutRows(o->record, r.recorded);
        WriteDataset(o->record, r.recorded,
                     {{"scenario", e->name},
                      {"params", o->params},
                      {"seed", std::to_string(o->seed)},
                      {"solver", o->sim.solver}});
        std::printf("recorded %zu problems to %s\n", r.recorded.size(), o->record.c_str());
      }
      return 0;
    };
  });
}

}  // namespace ncp::cli
