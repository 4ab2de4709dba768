#include "harness/reproduce/scene_frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "harness/markdown.h"
#include "harness/metrics/evaluator.h"
#include "harness/reproduce/budget_cap.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/thread_limits.h"
#include "harness/runner.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/registry.h"
#include "solvers/settings.h"

namespace ncp {

std::vector<ContactProblem> SceneFrames(const std::string& scene, const ParamMap& params,
                                        int frames, SimulateOptions sim, std::uint64_t seed,
                                        std::vector<WarmStart>* warm, int min_contacts,
                                        int max_contacts) {
  const SceneEntry* e = FindScene(scene);
  if (!e) throw Error(fmt::format("scene '{}': unknown", scene));
  sim.keep_warm = warm != nullptr;
  SimulateResult r = Simulate(*e, params, seed, sim);
  std::vector<ContactProblem> kept;
  std::vector<WarmStart> starts;
  for (std::size_t i = 0; i < r.recorded.size(); ++i) {
    const int c = r.recorded[i].num_contacts();
    if (c < min_contacts || c > max_contacts) continue;
    kept.push_back(std::move(r.recorded[i]));
    if (warm) starts.push_back(std::move(r.warm[i]));
  }
  if (kept.empty()) {
    if (max_contacts < kAnyContacts)
      throw Error(fmt::format("scene '{}': no frame with {}–{} contacts was recorded", scene,
                              min_contacts, max_contacts));
    throw Error(fmt::format("scene '{}': no frame with contacts was recorded", scene));
  }
  if (static_cast<int>(kept.size()) > frames) {
    kept.erase(kept.begin(), kept.end() - frames);
    if (warm) starts.erase(starts.begin(), starts.end() - frames);
  }
  if (warm) *warm = std::move(starts);
  return kept;
}

FrameSummary RunOnFrames(const std::vector<ContactProblem>& frames, const std::string& solver,
                         const std::map<std::string, std::string>& settings, double tol,
                         int max_iters, double time_ms, const ReproduceOptions& opt,
                         const std::string& part, const std::vector<WarmStart>* warm,
                         double step_tol, const FrameObserver& observe) {
  const SolverEntry& e = FindSolver(solver);
  const SolverJob job{&e, Settings::Parse(solver, e.settings, settings)};
  RunOptions ro;
  ro.budget.iters = max_iters;
  ro.budget.time_ms = time_ms;
  ro.budget.tol = tol;
  ro.budget.step_tol = step_tol;
  ro.threads = 1;
  CapBudget(opt, ro.budget);
  ro.warm = warm ? WarmMode::kPrevious : WarmMode::kNone;
  ro.retime_without_tol = true;
  const SolverThreadScope threads(1);
  std::vector<RunRecord> runs;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const ContactProblem& p = frames[f];
    WarmStart sol;
    const WarmStart* start = warm && f < warm->size() ? &(*warm)[f] : nullptr;
    const Evaluator ev(p);
    RunRecord r = RunOne(p, ev, job, ro, start, 0, &sol);
    // What the summary needs beyond the runner's metrics: the penetration in mm (the frame's
    // step) and the velocity error against the frame's reference.
    ObserveRun(r, "penetration_mm", 1e3 * p.meta.dt * r.final_metrics[Metric::kPenetration]);
    if (p.reference && p.reference->v.size() == sol.v.size() && sol.v.size() > 0)
      ObserveRun(r, "velocity_error",
                 (sol.v - p.reference->v).norm() / std::max(p.reference->v.norm(), 1e-300));
    if (observe) observe(p, sol, r);
    Record(opt, r, part, p.meta.name.empty() ? fmt::format("frame{}", f) : p.meta.name);
    runs.push_back(std::move(r));
  }
  std::vector<const RunRecord*> view;
  for (const RunRecord& r : runs) view.push_back(&r);
  return SummarizeFrames(view);
}

std::string RoundPart(const std::string& part, int round) {
  return fmt::format("{}-round{}", part, round);
}

FrameSummary BestRound(const ProtocolRecords& rec, const std::string& part,
                       const std::string& solver, int rounds) {
  FrameSummary best;
  bool found = false;
  for (int round = 0; round < rounds; ++round) {
    const std::vector<const RunRecord*> runs = rec.Part(RoundPart(part, round), solver);
    if (runs.empty()) continue;
    const FrameSummary x = SummarizeFrames(runs);
    if (!found || x.total_ms < best.total_ms) best = x;
    found = true;
  }
  return found ? best : SummarizeFrames(rec.Part(part, solver));
}

std::vector<double> RoundTotals(const ProtocolRecords& rec, const std::string& part,
                                const std::string& solver, int rounds) {
  std::vector<double> out;
  for (int round = 0; round < rounds; ++round) {
    const std::vector<const RunRecord*> runs = rec.Part(RoundPart(part, round), solver);
    if (!runs.empty()) out.push_back(SummarizeFrames(runs).total_ms);
  }
  return out;
}

void ObserveRigidSplit(const ContactProblem& p, const WarmStart& sol, RunRecord& r) {
  const auto nodes = p.meta.params.find("nodes");
  if (!p.reference || nodes == p.meta.params.end() || sol.v.size() != p.reference->v.size()) return;
  // A file's parameter is input: only a whole count leaving whole boxes is the layout.
  const double count = nodes->second;
  const int size = static_cast<int>(sol.v.size());
  if (!(count >= 1 && 3 * count < size) || count != std::floor(count)) return;
  const int n3 = 3 * static_cast<int>(count);
  if ((size - n3) % 6 != 0) return;
  const int boxes = (size - n3) / 6;
  const Vec d = sol.v - p.reference->v;
  const Vec& ref = p.reference->v;
  auto rel = [](double num, double den) { return std::sqrt(num / std::max(den, 1e-300)); };
  ObserveRun(r, "node_velocity_error", rel(d.head(n3).squaredNorm(), ref.head(n3).squaredNorm()));
  double lin = 0, lin_ref = 0, ang = 0, ang_ref = 0;
  for (int k = 0; k < boxes; ++k) {
    lin += d.segment<3>(n3 + 6 * k).squaredNorm();
    ang += d.segment<3>(n3 + 6 * k + 3).squaredNorm();
    lin_ref += ref.segment<3>(n3 + 6 * k).squaredNorm();
    ang_ref += ref.segment<3>(n3 + 6 * k + 3).squaredNorm();
  }
  ObserveRun(r, "rigid_linear_error", rel(lin, lin_ref));
  ObserveRun(r, "rigid_angular_error", rel(ang, ang_ref));
}

FrameSummary SummarizeFrames(const std::vector<const RunRecord*>& runs) {
  FrameSummary s;
  int with_ref = 0;
  double verr = 0.0;
  for (const RunRecord* r : runs) {
    ++s.frames;
    s.statuses.push_back(r->status);
    s.solver_infos.push_back(r->solver_info);
    const double res = r->final_metrics[Metric::kRes004];
    if (r->status == Outcome::kConverged) ++s.reached;
    s.total_ms += 1e3 * r->total_time_s;
    s.setup_ms += 1e3 * r->setup_time_s;
    s.iterations += r->iterations;
    s.res004 += std::isfinite(res) ? res : INFINITY;
    s.fb_aa += r->final_metrics[Metric::kFbAA];
    s.max_penetration_mm =
        std::max(s.max_penetration_mm, RunObservation(*r, "penetration_mm", 0.0));
    const double ve = RunObservation(*r, "velocity_error", -1.0);
    if (ve >= 0) verr += ve, ++with_ref;
  }
  const double n = std::max(1, s.frames);
  s.total_ms /= n, s.setup_ms /= n, s.iterations /= n, s.res004 /= n, s.fb_aa /= n;
  if (with_ref > 0) s.velocity_error = verr / with_ref;
  return s;
}

std::string FramesBySolverTable(const ProtocolRecords& rec, const std::string& part) {
  markdown::Table t(
      {"solver", "reached", "mean iterations", "mean ms", "mean res004", "frames per outcome"},
      "lrrrrl");
  for (const SolverEntry& e : Solvers()) {
    const FrameSummary s = SummarizeFrames(rec.Part(part, e.name));
    if (s.frames == 0) continue;
    std::map<std::string, int> count;  // frames per outcome
    for (Outcome o : s.statuses) ++count[ToString(o)];
    std::string status;
    for (const auto& [name, n] : count)
      status += fmt::format("{}{} {}", status.empty() ? "" : ", ", name, n);
    if (s.statuses.front() == Outcome::kNotApplicable)
      status += ": " + rec.Part(part, e.name).front()->message;
    t.Row({e.name, fmt::format("{} of {}", s.reached, s.frames),
           fmt::format("{:.0f}", s.iterations), fmt::format("{:.2f}", s.total_ms),
           fmt::format("{:.1e}", s.res004), status});
  }
  return t.str();
}

std::string FramesBySolverSection(const ProtocolRecords& rec, const std::string& part,
                                  const std::string& frames, double tol, int max_iters,
                                  double time_ms) {
  return fmt::format(
             "\n\nEvery solver on {}, res004 ≤ {:g}, at most {} iterations and {:g} ms a "
             "frame:\n\n",
             frames, tol, max_iters, time_ms) +
         FramesBySolverTable(rec, part);
}

}  // namespace ncp
