#include "harness/reproduce/scene_frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "harness/metrics/evaluator.h"
#include "harness/runner.h"
#include "harness/thread_limits.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/settings.h"

namespace ncp {

std::vector<ContactProblem> SceneFrames(const std::string& scene, const ParamMap& params,
                                        int frames, SimulateOptions sim, std::uint64_t seed) {
  const SceneEntry* e = FindScene(scene);
  if (!e) throw Error(fmt::format("scene '{}': unknown", scene));
  std::vector<ContactProblem> kept;
  for (ContactProblem& p : Simulate(*e, params, seed, sim).recorded)
    if (p.num_contacts() > 0) kept.push_back(std::move(p));
  if (kept.empty()) throw Error(fmt::format("scene '{}': no frame with contacts was recorded", scene));
  if (static_cast<int>(kept.size()) > frames) kept.erase(kept.begin(), kept.end() - frames);
  return kept;
}

FrameSummary RunOnFrames(const std::vector<ContactProblem>& frames, const std::string& solver,
                         const std::map<std::string, std::string>& settings, double tol,
                         int max_iters, double time_ms) {
  const SolverEntry& e = FindSolver(solver);
  const SolverJob job{&e, Settings::Parse(solver, e.settings, settings)};
  RunOptions ro;
  ro.budget.iters = max_iters;
  ro.budget.time_ms = time_ms;
  ro.budget.tol = tol;
  ro.threads = 1;
  SetSolverThreads(1);
  FrameSummary s;
  int with_ref = 0;
  double verr = 0.0;
  for (const ContactProblem& p : frames) {
    WarmStart sol;
    const RunRecord r = RunOne(p, Evaluator(p), job, ro, nullptr, 0, &sol);
    ++s.frames;
    s.statuses.push_back(r.status);
    const double res = r.final_metrics[Metric::kRes004];
    if (r.status == "converged") ++s.reached;
    s.total_ms += 1e3 * r.total_time_s;
    s.setup_ms += 1e3 * r.setup_time_s;
    s.iterations += r.iterations;
    s.res004 += std::isfinite(res) ? res : INFINITY;
    s.fb_aa += r.final_metrics[Metric::kFbAA];
    const double pen = r.final_metrics[Metric::kPenetration];
    s.max_penetration_mm = std::max(s.max_penetration_mm, 1e3 * p.meta.dt * pen);
    if (p.reference && p.reference->v.size() == sol.v.size() && sol.v.size() > 0) {
      verr += (sol.v - p.reference->v).norm() / std::max(p.reference->v.norm(), 1e-300);
      ++with_ref;
    }
  }
  const double n = std::max(1, s.frames);
  s.total_ms /= n, s.setup_ms /= n, s.iterations /= n, s.res004 /= n, s.fb_aa /= n;
  if (with_ref > 0) s.velocity_error = verr / with_ref;
  return s;
}

}  // namespace ncp
