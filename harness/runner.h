// The benchmark loop: for each problem × solver × repeat, Setup and Iterate under the budget,
// timing only the solver (evaluation for traces and tolerances is excluded), then one final
// evaluation by the shared Evaluator.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/distribute/shard.h"
#include "harness/metrics/evaluator.h"
#include "harness/run_record.h"
#include "problems/model/contact_problem.h"
#include "solvers/registry.h"

namespace ncp {

struct Budget {
  int iters = 1000;      // outer iterations (≥ 1)
  double time_ms = 0.0;  // per problem, setup included; 0 = none
  double tol = 0.0;      // stop when tol_metric ≤ tol; 0 = none
  Metric tol_metric = Metric::kRes004;
  // Stop when the velocity moved this little since the last test, relative to itself:
  // ‖v_k − v_j‖ ≤ step_tol · ‖v_k‖ (j the last tested iterate, the start before the first
  // test); 0 = none. 002 §V-C1's residual: a fixed-point iteration's change in velocity space,
  // a dual solver's v being A⁻¹(b + Jᵀλ). A step this small says the iteration has stalled
  // or converged, not which: the metrics of the final iterate say that. With tol too, the run
  // converges at whichever is met first. Global problems only (a local one has no v).
  double step_tol = 0.0;
  std::string ToString() const;
};

// kGuess: the problem's first shipped initial guess (fclib /guesses), none when it has none.
enum class WarmMode { kNone, kReference, kPrevious, kGuess };
WarmMode WarmModeFromName(const std::string& name);  // throws ncp::Error
const char* ToString(WarmMode w);

struct SolverJob {
  const SolverEntry* entry = nullptr;
  Settings settings;
};

struct RunOptions {
  Budget budget;
  int repeat = 1;
  int threads = 0;      // 0: OpenMP's default
  int trace_every = 0;  // record a trace point every K iterations; 0 = none
  // Test budget.tol (and step_tol) every K iterations (≥ 1): each test evaluates the metrics
  // (res004 costs a solve with A), which dominates stepping a large scene whose solves only give
  // warm starts.
  int tol_every = 1;
  WarmMode warm = WarmMode::kNone;
  // With budget.tol or step_tol > 0: the reported times are those of a second run of the same
  // iterations without the tolerance tests (the solvers are deterministic). Each test evaluates the
  // metrics (res004 costs a solve with A), untimed, but it evicts the solver's data from the cache
  // and would bill a cold cache to every timed iteration.
  bool retime_without_tol = false;
  // Further root attributes of the results file (e.g. what a baseline or a sweep ran).
  std::map<std::string, std::string> run_attrs;
  // The slice of the jobs this process runs (--shard K/N); the whole by default.
  Shard shard;
  // The output holds this run's jobs only (a baseline): rows of other jobs, in the file or in
  // parts left by an interrupted run with other arguments, are dropped when it is written.
  bool only_these_jobs = false;
  // Called before each job (Python's Ctrl-C check); an exception it throws ends the run there,
  // its finished jobs kept in the parts for the next run to resume from.
  std::function<void()> between_jobs;
  // Called between a job's iterations, at most every kPollSeconds of its solve (Python's Ctrl-C
  // check inside a long job); an exception it throws ends the run as between_jobs' does.
  std::function<void()> poll;
  static constexpr double kPollSeconds = 0.2;
};

// A job's row before it runs: the identity and size columns (status `failed` until set).
RunRecord JobRow(const ContactProblem& p, const SolverJob& job, const RunOptions& opt, int repeat);

// Throws Error where the budget's tolerance is on a metric the problem does not define (dyn,
// primal and dual on a local (W, q) problem: NaN, so the run could never meet it).
void CheckToleranceMetric(const ContactProblem& p, const Budget& b, const std::string& file);

// Runs one job. `warm` may be null; `solution`, when given, receives the final (v, λ).
RunRecord RunOne(const ContactProblem& p, const Evaluator& ev, const SolverJob& job,
                 const RunOptions& opt, const WarmStart* warm, int repeat,
                 WarmStart* solution = nullptr);

// Parses "--solvers a,b" and "--set a.k=v" into validated jobs; throws ncp::Error.
std::vector<SolverJob> MakeSolverJobs(const std::vector<std::string>& names,
                                      const std::vector<std::string>& sets);

struct DatasetInput {
  std::string path;
  std::string stem;
  std::vector<ContactProblem> problems;
};

// Loads and validates every problem; throws ncp::Error "file: problem 'name': reason".
DatasetInput LoadValidated(const std::string& path);

// Runs everything into `results_path` (atomic, resumable). Returns the number of jobs run now (by
// all ranks, on rank 0); unless quiet, prints one progress line per job to stderr. Only the jobs of
// `opt.shard` run. In an MPI job (harness/distribute/cluster.h) every rank calls it with the same
// arguments: the ranks share the jobs, each writes its own parts, and rank 0 alone finalizes the
// file (the others return once nothing is left to hand out; callers skip their reports there).
int RunAll(const std::vector<DatasetInput>& data, const std::vector<SolverJob>& jobs,
           const RunOptions& opt, const std::string& results_path, bool quiet);

std::string JobKey(const std::string& dataset, const ContactProblem& p, const SolverJob& job,
                   const RunOptions& opt, int repeat);

}  // namespace ncp
