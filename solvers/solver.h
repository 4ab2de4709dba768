// One interface for every solver. The harness owns the loop (budgets, timing, traces):
//   Setup(problem, settings, warm start)  — factorizations, Delassus assembly; timed
//   Iterate()                             — one outer iteration; timed; no heap allocation
//   IterateChunk(k, done)                 — k iterations in one call where MaxChunk() > 1
//   Current(v, λ)                         — not timed
//   Info()                                — solver-specific counters
//   Stats()                               — per-iteration statistics as data; not timed
//   Work()                                — bytes and flops the iterations had to move; not timed
#pragma once

#include <chrono>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/settings.h"

namespace ncp {

// A solver's step status. Whether a run converged, ran out of iterations or of time is the
// harness' outcome (harness/run_record.h), never the solver's: a solver that ends its run itself
// (an internal iteration cap, a stopping test of its own, a deadline passed inside a setup)
// returns kStopped, and the harness checks the run's tolerance on its final iterate.
enum class Status {
  kRunning,        // not finished: the harness decides when to stop
  kStopped,        // the solver ended the run itself; the harness judges the final iterate
  kDiverged,       // non-finite or exploding iterate
  kFailed,         // e.g. a factorization failed
  kNotApplicable,  // e.g. the problem's form or structure is not supported
};
const char* ToString(Status s);

struct WarmStart {
  Vec v;  // may be empty (dual solvers need only λ)
  Vec lambda;
};

// The solver's own view of its progress, recorded by the harness at every trace point (after
// MuJoCo's mjSolverStat and Pinocchio's ADMM SolverStats). Values are the solver's internal
// quantities, in its own norms and scaling: they describe the algorithm, never judge it (the
// evaluator's metrics do). Fixed size and returned by value, so reading it allocates nothing.
// A field a solver does not report stays NaN (values) or −1 (counts).
struct SolverStats {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  double primal_residual = kNone;  // current: e.g. ADMM's ‖J v̂ − z‖, the AL step ‖J v̂ − z‖
  double dual_residual = kNone;  // current: e.g. ‖A v̂ − b − Jᵀλ‖
  double penalty = kNone;        // current penalty (ADMM / AL β, ρ)
  // Counts are cumulative from the start of Setup (its own work included), so they never
  // decrease along a trace.
  int inner_iterations = -1;   // inner iterations (Newton steps of an inner solve)
  int refactorizations = -1;   // numeric factorizations (Cholesky, LU)
  int line_search_steps = -1;  // function evaluations made by line searches (mjSolverStat neval)
};

// What the iterations done since Setup had to move and compute, counted from the problem's
// structure as the solver stores it (docs/roofline.md): every stored matrix entry a product or
// solve reads (value and index), every distinct vector an iteration touches once (re-reads may
// come from the cache); flops of its products, solves and projections. Line-search trials,
// inner steps and refactorizations count as they happen. A lower bound on the traffic, so
// achieved rates derived from it are conservative. NaN where a solver does not count.
struct WorkCount {
  double bytes = std::numeric_limits<double>::quiet_NaN();
  double flops = std::numeric_limits<double>::quiet_NaN();
};

class Solver {
 public:
  virtual ~Solver() = default;
  // Returns kRunning when ready to iterate, else kFailed / kNotApplicable with message().
  virtual Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) = 0;
  // One outer iteration; kRunning, or kDiverged / kFailed.
  virtual Status Iterate() = 0;
  // Up to k iterations in one call, stopping where Iterate() would have stopped; `done` is how
  // many ran. The harness hands k > 1 only to solvers whose MaxChunk() allows it, and only where
  // no trace point, tolerance check or budget falls inside the chunk, so the iterates equal k
  // single calls. A device solver runs the chunk without a host round trip per iteration.
  virtual Status IterateChunk(int k, int& done) {
    Status st = Status::kRunning;
    for (done = 0; done < k && st == Status::kRunning; ++done) st = Iterate();
    return st;
  }
  // Largest chunk the solver runs in one call (1: the harness calls Iterate() alone).
  virtual int MaxChunk() const { return 1; }
  // v may be left empty for local (dual-form) problems.
  virtual void Current(Vec& v, Vec& lambda) const = 0;
  virtual std::vector<std::pair<std::string, double>> Info() const { return {}; }
  // Must not allocate: the harness calls it at every trace point.
  virtual SolverStats Stats() const { return {}; }
  // Cumulative since Setup; read once after the run.
  virtual WorkCount Work() const { return {}; }
  // Threads the solver actually uses (1 for sequential algorithms).
  virtual int ThreadsUsed() const { return 1; }
  const std::string& message() const { return message_; }
  // The run's time budget as a point in time (setup included), set by the harness before Setup.
  // A solver whose one iteration can take long (a Newton solve per AL step) ends its inner loops
  // early once past it, so that `--time-ms` overshoots by one inner step, not one iteration.
  virtual void SetDeadline(std::chrono::steady_clock::time_point t) { deadline_ = t; }

 protected:
  bool PastDeadline() const {
    return deadline_ != std::chrono::steady_clock::time_point::max() &&
           std::chrono::steady_clock::now() >= deadline_;
  }
  std::string message_;

 private:
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
};

}  // namespace ncp
