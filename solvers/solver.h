// One interface for every solver. The harness owns the loop (budgets, timing, traces):
//   Setup(problem, settings, warm start)  — factorizations, Delassus assembly; timed
//   Iterate()                             — one outer iteration; timed; no heap allocation
//   Current(v, λ)                         — not timed
//   Info()                                — solver-specific counters
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "problems/model/contact_problem.h"
#include "solvers/settings.h"

namespace ncp {

enum class Status {
  kRunning,         // not finished: the harness decides when to stop
  kConverged,       // the harness' tolerance was met
  kMaxIterations,
  kTimeLimit,
  kDiverged,        // non-finite or exploding iterate
  kFailed,          // e.g. a factorization failed
  kNotApplicable,   // e.g. the problem's form or structure is not supported
};
const char* ToString(Status s);

struct WarmStart {
  Vec v;       // may be empty (dual solvers need only λ)
  Vec lambda;
};

class Solver {
 public:
  virtual ~Solver() = default;
  // Returns kRunning when ready to iterate, else kFailed / kNotApplicable with message().
  virtual Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) = 0;
  // One outer iteration; kRunning, or kDiverged / kFailed.
  virtual Status Iterate() = 0;
  // v may be left empty for local (dual-form) problems.
  virtual void Current(Vec& v, Vec& lambda) const = 0;
  virtual std::vector<std::pair<std::string, double>> Info() const { return {}; }
  // Threads the solver actually uses (1 for sequential algorithms).
  virtual int ThreadsUsed() const { return 1; }
  const std::string& message() const { return message_; }

 protected:
  std::string message_;
};

}  // namespace ncp
