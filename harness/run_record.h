// One row of the long-format results: problem × solver × settings × budget × repeat,
// with its per-iteration trace.
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/metrics/metrics.h"
#include "problems/model/descriptors.h"
#include "solvers/solver.h"

namespace ncp {

// How a run ended. The harness decides it (tolerance met, budget spent, non-finite result) from
// the solver's step Status; its names are the strings of the results file and the CLI, and
// nothing else compares status strings.
// A run's outcome, decided by the harness alone: kStopped is a solver that ended the run itself
// with the run's tolerance not met on its final iterate.
enum class Outcome {
  kConverged,
  kMaxIterations,
  kTimeLimit,
  kDiverged,
  kFailed,
  kNotApplicable,
  kStopped
};
inline constexpr std::array<const char*, 7> kOutcomeNames = {
    "converged", "max-iterations", "time-limit", "diverged", "failed", "not-applicable", "stopped"};
inline const char* ToString(Outcome o) { return kOutcomeNames[static_cast<std::size_t>(o)]; }
inline std::optional<Outcome> OutcomeFromName(std::string_view name) {
  for (std::size_t i = 0; i < kOutcomeNames.size(); ++i)
    if (name == kOutcomeNames[i]) return static_cast<Outcome>(i);
  return std::nullopt;
}
// Ran to its end: a time and final metrics that mean something (not diverged, failed or
// not applicable).
inline bool RanToEnd(Outcome o) {
  return o != Outcome::kDiverged && o != Outcome::kFailed && o != Outcome::kNotApplicable;
}

struct TracePoint {
  int iteration = 0;    // outer iterations done
  double time_s = 0.0;  // setup + iterate time so far (evaluation excluded)
  Metrics metrics;
  SolverStats stats;  // the solver's own statistics at this point (Solver::Stats())
};

// One claim of a paper with its verdict, as a reproduction judged it: stored under /claims of the
// protocol's results file and collected across files by `ncpbench claims`. The machine and the
// revision are the file's run attributes (host, cpu, git_revision).
struct ClaimRecord {
  std::string protocol;      // e.g. "004-table2"
  std::string paper;         // "000" … "004"
  std::string statement;     // the claim with its tolerance, e.g. "… within 3× of 10×"
  std::string ours;          // our figure
  std::string paper_figure;  // the paper's figure where it gives one, else ""
  std::string verdict;       // reproduced, not reproduced, contradicted, not assessed
  std::string held;          // what held of a direction-and-magnitude claim, else ""
  std::string reason;        // why not assessed, else ""
  std::string cause;         // a short measured cause where one is known, else ""
  int cases = 0;             // the --cases it ran with (0: the protocol's default)
  int max_iters = 0;         // the --max-iters cap it ran with (0: the protocol's budgets)
};

// A figure a paper reproduction measured that belongs to no single run (a scene's outcome, a
// frame's size): `value` for a number, `text` for words; stored under /observations.
struct Observation {
  std::string part;  // the protocol's part it belongs to (as RunRecord::dataset's suffix)
  std::string key;
  double value = 0.0;
  std::string text;
};

struct RunRecord {
  std::string job_key;  // unique key of the job, used for resuming
  std::string dataset;  // dataset file stem
  std::string problem;  // problem name within the dataset
  std::string solver;
  std::string settings;    // "key=value;key=value" with every setting, defaults included
  std::string budget;      // "iters=500;time_ms=0;tol=0;tol_metric=res004"
  std::string warm_start;  // none | reference | previous
  int repeat = 0;
  Outcome status = Outcome::kFailed;
  std::string message;      // solver message, empty when none
  std::string solver_info;  // "key=value;..." of the solver's counters (Info()) at the end
  // "key=value;..." of what a paper reproduction measured of this run beyond the runner's
  // metrics (e.g. a residual by the paper's own definition); empty elsewhere.
  std::string observations;
  // Where the row was measured: a campaign may span machines (MPI ranks, --shard slices).
  std::string host;    // host name; empty in files written before the column
  std::string cpu;     // CPU model of that host
  std::string worker;  // "rank R of N", "shard K/N", both, or empty for one plain process
  int iterations = -1;
  double setup_time_s = -1.0;
  double solve_time_s = -1.0;  // iterate() time summed
  double total_time_s = -1.0;  // setup + solve
  int threads_given = -1;
  int threads_used = -1;
  int num_dofs = -1;
  int num_constraints = -1;
  int num_contacts = -1;
  int num_bodies = -1;  // bodies of the structure layer, −1 without one
  Metrics final_metrics;
  // ‖λ − λ*‖/‖λ*‖ against the stored reference (λ* = 0: 0 when λ = 0, else 1), −1 without one
  double lambda_err = -1.0;
  // What the iterations had to move and compute (Solver::Work(), docs/roofline.md); NaN where
  // the solver does not count, the run did not iterate, or the file predates the columns.
  double work_bytes = std::numeric_limits<double>::quiet_NaN();
  double work_flops = std::numeric_limits<double>::quiet_NaN();
  // Difficulty of the problem (not of the run): filled by RunAll once per problem, untimed;
  // NaN where not computed (and in files written before these columns).
  ProblemDescriptors descriptors;
  std::vector<TracePoint> trace;
};

}  // namespace ncp
