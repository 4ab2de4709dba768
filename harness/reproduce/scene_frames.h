// Shared by the protocols that measure solvers on simulated scenes: frames recorded from a scene's
// simulation, and one solver run on every frame to a residual threshold, summarized.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/simulate.h"
#include "problems/model/contact_problem.h"

namespace ncp {

// The last `frames` recorded frames (with at least one contact) of `scene` simulated with `sim`;
// throws ncp::Error when the scene does not exist or records none.
std::vector<ContactProblem> SceneFrames(const std::string& scene, const ParamMap& params,
                                        int frames, SimulateOptions sim, std::uint64_t seed = 1);

// One solver on every frame until res004 ≤ tol (or the budget ends), single thread.
struct FrameSummary {
  int frames = 0, reached = 0;        // frames run, frames that reached tol
  double total_ms = 0.0;              // mean setup + iterations
  double setup_ms = 0.0;              // mean setup (Delassus assembly, factorization, ...)
  double iterations = 0.0;            // mean iterations
  double max_penetration_mm = 0.0;    // max over frames of dt · max(0, −(J v + e)), in mm
  double velocity_error = -1.0;       // mean ‖v − v*‖/‖v*‖ against the frames' references
  double res004 = 0.0;                // mean final res004
  double fb_aa = 0.0;                 // mean of the 000 "AA" accuracy (−log10 mean FB error)
  std::vector<std::string> statuses;  // one per frame
};
FrameSummary RunOnFrames(const std::vector<ContactProblem>& frames, const std::string& solver,
                         const std::map<std::string, std::string>& settings, double tol,
                         int max_iters, double time_ms);

}  // namespace ncp
