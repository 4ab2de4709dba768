// Shared by the protocols that measure solvers on simulated scenes: frames recorded from a scene's
// simulation, and one solver run on every frame to a residual threshold, summarized.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/simulate.h"
#include "problems/model/contact_problem.h"

namespace ncp {

// The last `frames` recorded frames of `scene` simulated with `sim` whose contact count lies in
// [min_contacts, max_contacts]; throws ncp::Error when the scene does not exist or records none.
// With `warm`, also each frame's warm start carried over from the previous step (002 §V-A5).
constexpr int kAnyContacts = 1 << 30;  // max_contacts: no upper bound
std::vector<ContactProblem> SceneFrames(const std::string& scene, const ParamMap& params,
                                        int frames, SimulateOptions sim, std::uint64_t seed = 1,
                                        std::vector<WarmStart>* warm = nullptr,
                                        int min_contacts = 1, int max_contacts = kAnyContacts);

// One solver on every frame until res004 ≤ tol (or the budget ends), single thread. With tol > 0
// the times are those of a second run of the same number of iterations without the per-iteration
// res004 test (RunOptions::retime_without_tol). Every frame's run is recorded under `part`
// (harness/reproduce/protocol_records.h) with the observations `penetration_mm` (dt · the
// penetration metric, in mm) and, where the frame has a reference, `velocity_error`; the
// summary returned is SummarizeFrames of those rows. A report summarizes the same rows from the
// records: give each group of runs summarized together a part of its own.
struct FrameSummary {
  int frames = 0, reached = 0;      // frames run, frames that reached tol
  double total_ms = 0.0;            // mean setup + iterations
  double setup_ms = 0.0;            // mean setup (Delassus assembly, factorization, ...)
  double iterations = 0.0;          // mean iterations
  double max_penetration_mm = 0.0;  // max over frames of dt · max(0, −(J v + e)), in mm
  double velocity_error = -1.0;     // mean ‖v − v*‖/‖v*‖ against the frames' references
  double res004 = 0.0;              // mean final res004
  double fb_aa = 0.0;               // mean of the 000 "AA" accuracy (mean −log10 FB error)
  std::vector<Outcome> statuses;    // one per frame
  std::vector<std::string> solver_infos;  // the solver's counters (Info()) per frame
};
// The summary of frame runs recorded by RunOnFrames (e.g. ProtocolRecords::Part(part, solver)).
FrameSummary SummarizeFrames(const std::vector<const RunRecord*>& runs);
// Markdown: every registered solver that ran on `part`'s frames, one row each — frames that
// reached the tolerance, mean iterations, ms and res004, and the frames per outcome (with the
// reason of a solver that does not apply).
std::string FramesBySolverTable(const ProtocolRecords& rec, const std::string& part);
// The table after a paragraph: "Every solver on <frames>, res004 ≤ <tol>, at most <max_iters>
// iterations and <time_ms> ms a frame:".
std::string FramesBySolverSection(const ProtocolRecords& rec, const std::string& part,
                                  const std::string& frames, double tol, int max_iters,
                                  double time_ms);
// Timing rounds, for protocols whose claims compare times: every cell (a solver on a part's
// frames) is run once per round, round r of all cells before round r + 1, under
// RoundPart(part, r); a slow spell of a shared machine then hits every cell alike, where
// back-to-back repeats would leave it on a few. The runs are deterministic: only times differ.
std::string RoundPart(const std::string& part, int round);
// The round of `part` whose frames took the least total time; a results file from before the
// rounds (no round recorded) gives the runs under `part` itself.
FrameSummary BestRound(const ProtocolRecords& rec, const std::string& part,
                       const std::string& solver, int rounds);
// Each recorded round's total time of `part` [ms], in round order (empty for a file from before
// the rounds): rounds run interleaved, so two cells' round r shared the machine's state.
std::vector<double> RoundTotals(const ProtocolRecords& rec, const std::string& part,
                                const std::string& solver, int rounds);
// What a protocol observes of a frame's run beyond the summary's figures (ObserveRun on `run`),
// from the frame and the solver's final (v, λ), before the run is recorded.
using FrameObserver =
    std::function<void(const ContactProblem& frame, const WarmStart& solution, RunRecord& run)>;
// A FrameObserver for the FEM scenes with free rigid boxes (DeformableSystem's layout: 3 dofs per
// node, the frame's parameter `nodes` of them, then 6 per box, linear before angular): the
// relative velocity error ‖v − v*‖/‖v*‖ against the frame's reference over the nodes
// (`node_velocity_error`), the boxes' linear (`rigid_linear_error`) and angular
// (`rigid_angular_error`) dofs. Observes nothing on a frame without a reference or boxes.
void ObserveRigidSplit(const ContactProblem& frame, const WarmStart& solution, RunRecord& run);
// `warm`: one warm start per frame, or null for cold starts. `step_tol`: Budget::step_tol.
FrameSummary RunOnFrames(const std::vector<ContactProblem>& frames, const std::string& solver,
                         const std::map<std::string, std::string>& settings, double tol,
                         int max_iters, double time_ms, const ReproduceOptions& opt,
                         const std::string& part, const std::vector<WarmStart>* warm = nullptr,
                         double step_tol = 0.0, const FrameObserver& observe = {});

}  // namespace ncp
