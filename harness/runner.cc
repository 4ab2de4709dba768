#include "harness/runner.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

#include "common/error.h"
#include "harness/isolated_run.h"
#include "harness/results_store.h"
#include "harness/system_info.h"
#include "harness/thread_limits.h"
#include "problems/io/fclib_io.h"
#include "problems/model/descriptors.h"
#include "problems/model/validate.h"

namespace ncp {
namespace {

// A residual this many times where it started (or, from an exact start, this many times
// kGrowthFloor) is a blow-up even while every number is finite: a budget would end it as
// max-iterations, and its residual would be ranked like any other.
constexpr double kGrowthBound = 1e10;
constexpr double kGrowthFloor = 1e-6;  // res004 is a velocity; below this a start is exact

bool Exploded(double now, double start) {
  return std::isfinite(start) && now > kGrowthBound * std::max(start, kGrowthFloor);
}

std::string GrowthMessage(double now, double start, int iteration) {
  return fmt::format("res004 grew from {:.3g} to {:.3g} by iteration {} (more than {:g} times)",
                     start, now, iteration, kGrowthBound);
}

// The run's outcome from the solver's last step status and the harness' own decision (`ended`:
// tolerance met, iterations or time spent), made while the solver was still running. A solver
// that stopped itself is judged on its final metrics: converged only where the run's tolerance
// holds there, time-limit where its time budget is spent, else stopped.
Outcome ToOutcome(Status st, Outcome ended, const Budget& b, const RunRecord& r) {
  switch (st) {
    case Status::kRunning:
      return ended;
    case Status::kStopped:
      // A solver that stops itself is judged on its final iterate; a velocity step needs two.
      if (b.tol > 0 && r.final_metrics[b.tol_metric] <= b.tol) return Outcome::kConverged;
      if (b.time_ms > 0 && r.total_time_s * 1e3 >= b.time_ms) return Outcome::kTimeLimit;
      return Outcome::kStopped;
    case Status::kDiverged:
      return Outcome::kDiverged;
    case Status::kNotApplicable:
      return Outcome::kNotApplicable;
    case Status::kFailed:
      break;
  }
  return Outcome::kFailed;
}

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// A zero reference (every contact separating) has no relative error: 0 when x is zero too,
// else 1 (no digit right), not ‖x‖ over a floor (1e282 for rounding-level multipliers).
double RelErr(const Vec& x, const Vec& ref) {
  if (x.size() != ref.size()) return -1.0;  // a problem without rows: both empty, error 0
  const double ref_norm = ref.norm(), err = (x - ref).norm();
  if (ref_norm == 0.0) return err == 0.0 ? 0.0 : 1.0;
  return err / ref_norm;
}

// Iterations the next call may run: up to the next trace point, tolerance check or iteration
// budget, so chunks change no iterate and no stopping point; under a time budget, about half of
// what the iterations so far say fits in the time left (one iteration first, to learn its cost).
int ChunkSize(const Solver& s, const RunOptions& opt, int it, double spent_s, double solve_s) {
  const int most = s.MaxChunk();
  if (most <= 1) return 1;
  const Budget& b = opt.budget;
  int k = std::min(most, b.iters - it);
  if (opt.trace_every > 0) k = std::min(k, opt.trace_every - it % opt.trace_every);
  if (b.tol > 0 || b.step_tol > 0) {
    const int every = std::max(1, opt.tol_every);
    k = std::min(k, every - it % every);
  }
  if (b.time_ms > 0) {
    if (it == 0) return 1;
    const double left_s = b.time_ms * 1e-3 - spent_s, per_s = solve_s / it;
    const double fit = per_s > 0 ? 0.5 * left_s / per_s : 1.0;
    k = std::min(k, fit >= k ? k : std::max(1, static_cast<int>(fit)));
  }
  return std::max(k, 1);
}

}  // namespace

std::string Budget::ToString() const {
  // step_tol only where set, so that the keys of runs without it stay as they were.
  return fmt::format("iters={};time_ms={};tol={};tol_metric={}{}", iters, time_ms, tol,
                     kMetricNames[static_cast<int>(tol_metric)],
                     step_tol > 0 ? fmt::format(";step_tol={}", step_tol) : "");
}

WarmMode WarmModeFromName(const std::string& name) {
  if (name == "none") return WarmMode::kNone;
  if (name == "reference") return WarmMode::kReference;
  if (name == "previous") return WarmMode::kPrevious;
  if (name == "guess") return WarmMode::kGuess;
  throw Error(fmt::format("--warm = {}: must be one of none, reference, previous, guess", name));
}

const char* ToString(WarmMode w) {
  switch (w) {
    case WarmMode::kNone:
      return "none";
    case WarmMode::kReference:
      return "reference";
    case WarmMode::kPrevious:
      return "previous";
    case WarmMode::kGuess:
      return "guess";
  }
  return "none";
}

std::vector<SolverJob> MakeSolverJobs(const std::vector<std::string>& names,
                                      const std::vector<std::string>& sets) {
  std::map<std::string, std::map<std::string, std::string>> given;
  for (const std::string& s : sets) {
    const std::size_t dot = s.find('.'), eq = s.find('=');
    if (dot == std::string::npos || eq == std::string::npos || dot > eq)
      throw Error(fmt::format("--set {}: must be solver.key=value", s));
    const std::string solver = s.substr(0, dot), key = s.substr(dot + 1, eq - dot - 1);
    if (auto [it, fresh] = given[solver].emplace(key, s.substr(eq + 1)); !fresh)
      throw Error(fmt::format("--set {}.{}: given twice ({} and {}); set it once", solver, key,
                              it->second, s.substr(eq + 1)));
  }
  for (const auto& [solver, kv] : given) {
    bool listed = false;
    for (const auto& n : names) listed |= n == solver;
    if (!listed)
      throw Error(
          fmt::format("--set {}.*: solver '{}' is not one this command runs (--solvers, or "
                      "simulate's --solver)",
                      solver, solver));
  }
  std::vector<SolverJob> jobs;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (std::find(names.begin(), names.begin() + static_cast<long>(i), n) !=
        names.begin() + static_cast<long>(i))
      throw Error(fmt::format("--solvers {}: given twice", n));
    const SolverEntry& e = FindSolver(n);
    jobs.push_back({&e, Settings::Parse(n, e.settings, given[n])});
  }
  if (jobs.empty()) throw Error("--solvers: empty list");
  return jobs;
}

DatasetInput LoadValidated(const std::string& path) {
  DatasetInput d;
  d.path = path;
  d.stem = std::filesystem::path(path).stem().string();
  d.problems = LoadProblems(path);
  if (d.problems.empty()) throw Error(fmt::format("{}: no problems in the file", path));
  for (const ContactProblem& p : d.problems) {
    const std::string err = Validate(p);
    if (!err.empty()) throw Error(fmt::format("{}: problem '{}': {}", path, p.meta.name, err));
  }
  return d;
}

std::string JobKey(const std::string& dataset, const ContactProblem& p, const SolverJob& job,
                   const RunOptions& opt, int repeat) {
  // Retimed runs are other measurements; keys without the option stay as they were.
  return fmt::format("{}|{}|{}|{}|{}|warm={}|threads={}|trace={}{}|repeat={}", dataset, p.meta.name,
                     job.entry->name, job.settings.ToString(), opt.budget.ToString(),
                     ToString(opt.warm), opt.threads, opt.trace_every,
                     opt.retime_without_tol ? "|retime" : "", repeat);
}

RunRecord JobRow(const ContactProblem& p, const SolverJob& job, const RunOptions& opt, int repeat) {
  RunRecord r;
  r.problem = p.meta.name;
  r.solver = job.entry->name;
  r.settings = job.settings.ToString();
  r.budget = opt.budget.ToString();
  r.warm_start = ToString(opt.warm);
  r.repeat = repeat;
  r.threads_given = opt.threads > 0 ? opt.threads : omp_get_max_threads();
  r.num_dofs = p.num_dofs();
  r.num_constraints = p.num_constraints();
  r.num_contacts = p.num_contacts();
  r.num_bodies = p.structure.empty() ? -1 : static_cast<int>(p.structure.bodies.size());
  return r;
}

void CheckToleranceMetric(const ContactProblem& p, const Budget& b, const std::string& file) {
  const Metric m = b.tol_metric;
  const bool dynamics = m == Metric::kDyn || m == Metric::kPrimal || m == Metric::kDual;
  if (b.tol > 0 && dynamics && p.form == ProblemForm::kLocal)
    throw Error(fmt::format(
        "--tol-metric {}: problem '{}'{} is local (W, q) and has no dynamics residual: the "
        "tolerance could never be met; use res004, natmap or fb",
        kMetricNames[static_cast<int>(m)], p.meta.name, file.empty() ? "" : " of " + file));
}

namespace {

// A call into the solver: what it throws, a std::exception or anything else (a plug-in's
// `throw 42`), fails the job with a message instead of ending the run; Interrupted (Ctrl-C)
// passes. False when it threw.
template <typename F>
bool Guarded(F&& call, std::string* message) {
  try {
    call();
    return true;
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    *message = e.what();
  } catch (...) {
    *message = "the solver threw an exception that is not a std::exception";
  }
  return false;
}

// One job run in this process, as named phases: Setup, Iterate (until a stop reason), Judge (the
// final iterate and the outcome), CloseTrace. Each records what it decided in the row.
class JobRun {
 public:
  JobRun(const ContactProblem& p, const Evaluator& ev, const SolverJob& job, const RunOptions& opt,
         int repeat)
      : p_(p),
        ev_(ev),
        job_(job),
        opt_(opt),
        b_(opt.budget),
        r_(JobRow(p, job, opt, repeat)),
        settings_(job.settings) {}

  // False when the solver could not be made or its setup threw: the job has failed, with the
  // message.
  bool Setup(const WarmStart* warm) {
    if (!Guarded([this] { solver_ = job_.entry->make(); }, &r_.message) || !solver_) {
      if (!solver_ && r_.message.empty())
        r_.message = "the solver entry's make() returned no solver";
      r_.status = Outcome::kFailed;
      return false;
    }
    const auto t0 = Clock::now();
    // The job's own copy of the settings: a solver that changed them would change what the
    // row records and what the next problem's job gets.
    const auto setup = [&] {
      HandDeadline(t0, 0.0);
      st_ = solver_->Setup(p_, settings_, warm);
    };
    if (!Guarded(setup, &r_.message)) {
      r_.setup_time_s = Seconds(t0, Clock::now());
      r_.status = Outcome::kFailed;
      return false;
    }
    r_.setup_time_s = Seconds(t0, Clock::now());
    if (!Guarded([this] { r_.threads_used = solver_->ThreadsUsed(); }, &r_.message)) {
      r_.status = Outcome::kFailed;
      return false;
    }
    return true;
  }

  // Iterates until the harness ends the run (tolerance met, iterations or time spent: ended_) or
  // the solver's status is no longer running (stopped, diverged, failed).
  void Iterate() {
    if (st_ != Status::kRunning) return;
    // A solver that throws from Current() or Stats() (a Python solver's exception) fails this
    // job, not the run.
    const bool ran = Guarded(
        [this] {
          start_res004_ = (opt_.trace_every > 0 ? Trace(0) : Evaluate())[Metric::kRes004];
          if (b_.step_tol > 0) v_tested_ = v_;  // the first step is measured from the start
          while (!Step()) {
          }
        },
        &r_.message);
    if (!ran) st_ = Status::kFailed;
  }

  // The final iterate: metrics, the checks that no NaN reaches the results, and the outcome.
  void Judge(WarmStart* solution) {
    r_.iterations = it_;
    r_.solve_time_s = solve_;
    r_.total_time_s = r_.setup_time_s + solve_;
    std::string why;
    const bool told = Guarded(
        [this] {
          if (r_.message.empty()) r_.message = solver_->message();
          for (const auto& [key, value] : solver_->Info())
            r_.solver_info +=
                fmt::format("{}{}={:g}", r_.solver_info.empty() ? "" : ";", key, value);
        },
        &why);
    if (!told && Ran()) st_ = Status::kFailed, r_.message = why;
    WorkCount work;
    if (Ran() && !Guarded(
                     [this, &work] {
                       Fetch();
                       work = solver_->Work();
                     },
                     &r_.message))
      st_ = Status::kFailed;
    if (Ran()) {
      r_.work_bytes = work.bytes, r_.work_flops = work.flops;
      r_.final_metrics = ev_.Evaluate(v_, lam_);
      CheckFinite();
      if (p_.reference && st_ != Status::kDiverged)
        r_.lambda_err = RelErr(lam_, p_.reference->lambda);
      if (solution) *solution = {v_, lam_};
    }
    r_.status = ToOutcome(st_, ended_, b_, r_);
    if (r_.status == Outcome::kStopped && r_.message.empty())
      r_.message = b_.tol > 0 ? fmt::format(
                                    "the solver stopped with {} {:.3g} above the run's "
                                    "tolerance {:.3g}",
                                    kMetricNames[static_cast<int>(b_.tol_metric)],
                                    r_.final_metrics[b_.tol_metric], b_.tol)
                   : b_.step_tol > 0 ? std::string(
                                           "the solver stopped before the run's velocity step "
                                           "was met (a step needs two tested iterates)")
                                     : std::string("the solver stopped; the run sets no tolerance");
  }

  // The final point always closes the trace.
  void CloseTrace() {
    if (opt_.trace_every <= 0 || r_.trace.empty() || r_.trace.back().iteration == it_ || !Ran())
      return;
    TracePoint tp;
    tp.iteration = it_;
    tp.time_s = r_.total_time_s;
    tp.metrics = r_.final_metrics;
    std::string why;
    if (!Guarded([&] { tp.stats = solver_->Stats(); }, &why)) {
      r_.status = Outcome::kFailed;  // the trace's last point would lack what the others have
      r_.message = why;
      r_.trace.clear();
      return;
    }
    r_.trace.push_back(tp);
  }

  RunRecord& record() { return r_; }

 private:
  bool Ran() const { return st_ != Status::kNotApplicable && st_ != Status::kFailed; }

  // The time budget as a deadline the solver can see inside a long iteration: what is left of
  // it in the runner's own account (setup + iterations, evaluations excluded), from now.
  void HandDeadline(Clock::time_point now, double spent_s) {
    if (b_.time_ms > 0)
      solver_->SetDeadline(now + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(b_.time_ms * 1e-3 - spent_s)));
  }

  // The solver's iterate into v_, lam_, of the problem's sizes (a v of none: a solver that reports
  // λ only); Error otherwise, which fails the job (an evaluation would give NaN, read as
  // divergence).
  void Fetch() {
    solver_->Current(v_, lam_);
    if (lam_.size() != p_.num_rows())
      throw Error(fmt::format("the solver's lambda has {} entries; the problem has {} rows",
                              lam_.size(), p_.num_rows()));
    if (v_.size() != 0 && p_.form == ProblemForm::kGlobal && v_.size() != p_.num_dofs())
      throw Error(fmt::format("the solver's v has {} entries; the problem has {} dofs", v_.size(),
                              p_.num_dofs()));
  }

  Metrics Evaluate() {
    Fetch();
    return ev_.Evaluate(v_, lam_);
  }

  Metrics Trace(int iter) {
    Fetch();
    TracePoint tp;
    tp.iteration = iter;
    tp.time_s = r_.setup_time_s + solve_;
    tp.metrics = ev_.Evaluate(v_, lam_);
    tp.stats = solver_->Stats();
    r_.trace.push_back(tp);
    return tp.metrics;
  }

  // res004 (the divergence test's) and the tolerance's metric at this iterate. A trace point
  // records every metric; a tolerance test alone on res004 computes only that (the others, e.g.
  // the dynamics residual, cost a further pass over A and J at every iteration).
  struct Probe {
    double res004, tested;
    double step = NAN;  // ‖v − v_tested_‖ / ‖v‖ where budget.step_tol is set
  };
  Probe Test(bool trace) {
    Probe pr;
    if (!trace && b_.tol_metric == Metric::kRes004) {
      Fetch();
      pr.res004 = pr.tested = ev_.Res004(lam_);
    } else {
      const Metrics m = trace ? Trace(it_) : Evaluate();
      pr.res004 = m[Metric::kRes004];
      pr.tested = m[b_.tol_metric];
    }
    if (b_.step_tol > 0 && v_.size() > 0 && v_.size() == v_tested_.size()) {
      pr.step = (v_ - v_tested_).norm() / v_.norm();  // NaN at v = 0: never met
      v_tested_ = v_;                                 // same size: no allocation
    }
    return pr;
  }
  bool Met(const Probe& pr) const {
    return (b_.tol > 0 && pr.tested <= b_.tol) || (b_.step_tol > 0 && pr.step <= b_.step_tol);
  }

  // One call of the solver and the harness' tests after it; true when the run ends.
  bool Step() {
    if (it_ >= b_.iters) return End(Outcome::kMaxIterations);
    const int k = ChunkSize(*solver_, opt_, it_, r_.setup_time_s + solve_, solve_);
    const auto t0 = Clock::now();
    int done = 1;
    const auto iterate = [&] {
      HandDeadline(t0, r_.setup_time_s + solve_);
      st_ = k == 1 ? solver_->Iterate() : solver_->IterateChunk(k, done);
    };
    if (!Guarded(iterate, &r_.message)) st_ = Status::kFailed;
    solve_ += Seconds(t0, Clock::now());
    if (done < 0 || done > k) {
      // The count decides the budget, the trace's points and the row: one outside 0..k is not
      // believed (a chunk that ran a million iterations of 50 asked); 0 (a solver that stopped
      // before its first) counts as the call's one.
      if (st_ != Status::kFailed)
        r_.message = fmt::format("IterateChunk({}) reported {} iterations done: must be 0 to {}", k,
                                 done, k);
      st_ = Status::kFailed;
      done = 1;
    }
    it_ += std::max(done, 1);
    if (opt_.poll && solve_ >= polled_s_ + RunOptions::kPollSeconds) {  // untimed, as the tests
      polled_s_ = solve_;
      opt_.poll();
    }
    if (st_ != Status::kRunning) return true;
    const bool want_trace = opt_.trace_every > 0 && it_ % opt_.trace_every == 0;
    const bool want_tol = (b_.tol > 0 || b_.step_tol > 0) && it_ % std::max(1, opt_.tol_every) == 0;
    if (want_trace || want_tol) {
      const Probe m = Test(want_trace);
      if (want_tol && Met(m)) return End(Outcome::kConverged);
      if (Exploded(m.res004, start_res004_)) {
        st_ = Status::kDiverged;
        r_.message = GrowthMessage(m.res004, start_res004_, it_);
        return true;
      }
    }
    if (b_.time_ms > 0 && (r_.setup_time_s + solve_) * 1e3 >= b_.time_ms)
      return End(Outcome::kTimeLimit);
    return false;
  }

  bool End(Outcome o) {
    ended_ = o;
    return true;
  }

  // No status but diverged may carry a NaN into the results.
  void CheckFinite() {
    if (!lam_.allFinite() && st_ != Status::kDiverged) {
      st_ = Status::kDiverged;
      r_.message = "non-finite multiplier";
    }
    // A finite λ can still give a non-finite v or residual (an iterate or a problem scaled so
    // far that the residual overflows).
    if (st_ != Status::kDiverged) {
      for (std::size_t k = 0; k < kNumMetrics; ++k) {
        const Metric m = static_cast<Metric>(k);
        // fb_aa = −log10(error) is +inf at an exact solution: not a sign of divergence. The
        // dynamics residuals (dyn, primal, dual) have no meaning on a local problem, nor
        // without a v (a Python solver that reports λ only): NaN there.
        const bool defined = m != Metric::kFbAA &&
                             ((p_.form == ProblemForm::kGlobal && v_.size() > 0) ||
                              (m != Metric::kDyn && m != Metric::kPrimal && m != Metric::kDual));
        if (defined && !std::isfinite(r_.final_metrics[m])) {
          st_ = Status::kDiverged;
          r_.message = fmt::format("non-finite final {}", kMetricNames[static_cast<int>(m)]);
          break;
        }
      }
    }
    if (st_ != Status::kDiverged && !v_.allFinite()) {
      st_ = Status::kDiverged;
      r_.message = "non-finite velocity";
    }
    if (st_ != Status::kDiverged && Exploded(r_.final_metrics[Metric::kRes004], start_res004_)) {
      st_ = Status::kDiverged;
      r_.message = GrowthMessage(r_.final_metrics[Metric::kRes004], start_res004_, it_);
    }
  }

  const ContactProblem& p_;
  const Evaluator& ev_;
  const SolverJob& job_;
  const RunOptions& opt_;
  const Budget& b_;
  RunRecord r_;
  Settings settings_;  // the job's, copied: the solver's Setup may not change the job's
  std::unique_ptr<Solver> solver_;
  Vec v_, lam_;
  Vec v_tested_;  // v at the last tolerance test (budget.step_tol)
  Status st_ = Status::kFailed;
  Outcome ended_ = Outcome::kFailed;  // set where the harness ends a running solver
  double solve_ = 0.0;                // seconds in Iterate (evaluations excluded)
  double polled_s_ = 0.0;             // solve_ at the last opt_.poll()
  int it_ = 0;
  double start_res004_ = 0.0;  // a run that grows past kGrowthBound times it has diverged
};

// The job in this process: the phases in order, then the re-timing without the tolerance tests.
RunRecord RunInProcess(const ContactProblem& p, const Evaluator& ev, const SolverJob& job,
                       const RunOptions& opt, const WarmStart* warm, int repeat,
                       WarmStart* solution) {
  JobRun run(p, ev, job, opt, repeat);
  if (!run.Setup(warm)) return run.record();
  run.Iterate();
  run.Judge(solution);
  run.CloseTrace();
  RunRecord r = std::move(run.record());
  const Budget& b = opt.budget;
  if (opt.retime_without_tol && (b.tol > 0 || b.step_tol > 0) && r.iterations > 0) {
    RunOptions again = opt;
    again.budget.iters = r.iterations;
    again.budget.tol = 0.0;
    again.budget.step_tol = 0.0;
    again.budget.time_ms = 0.0;
    again.trace_every = 0;
    again.retime_without_tol = false;
    const RunRecord t = RunOne(p, ev, job, again, warm, repeat);
    r.setup_time_s = t.setup_time_s;
    r.solve_time_s = t.solve_time_s;
    r.total_time_s = t.total_time_s;
  }
  return r;
}

}  // namespace

// A job the entry cannot take is refused before it runs; an isolated entry runs in a child
// process (which calls RunOne again), every other in this one.
RunRecord RunOne(const ContactProblem& p, const Evaluator& ev, const SolverJob& job,
                 const RunOptions& opt, const WarmStart* warm, int repeat, WarmStart* solution) {
  if (std::string why = NotApplicableReason(*job.entry, p); !why.empty()) {
    RunRecord r = JobRow(p, job, opt, repeat);
    r.status = Outcome::kNotApplicable;
    r.message = std::move(why);
    return r;
  }
  const RegistryFreeze frozen;  // the job points into the registry: nothing registers now
  if (job.entry->isolated && !InIsolatedJob())
    return RunIsolated(p, ev, job, opt, warm, repeat, solution);
  return RunInProcess(p, ev, job, opt, warm, repeat, solution);
}

}  // namespace ncp
