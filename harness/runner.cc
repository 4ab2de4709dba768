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
    case Status::kRunning: return ended;
    case Status::kStopped:
      if (b.tol > 0 && r.final_metrics[b.tol_metric] <= b.tol) return Outcome::kConverged;
      if (b.time_ms > 0 && r.total_time_s * 1e3 >= b.time_ms) return Outcome::kTimeLimit;
      return Outcome::kStopped;
    case Status::kDiverged: return Outcome::kDiverged;
    case Status::kNotApplicable: return Outcome::kNotApplicable;
    case Status::kFailed: break;
  }
  return Outcome::kFailed;
}

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double RelErr(const Vec& x, const Vec& ref) {
  if (x.size() != ref.size() || ref.size() == 0) return -1.0;
  return (x - ref).norm() / std::max(ref.norm(), 1e-300);
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
  if (b.tol > 0) {
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
  return fmt::format("iters={};time_ms={};tol={};tol_metric={}", iters, time_ms, tol,
                     kMetricNames[static_cast<int>(tol_metric)]);
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
    case WarmMode::kNone: return "none";
    case WarmMode::kReference: return "reference";
    case WarmMode::kPrevious: return "previous";
    case WarmMode::kGuess: return "guess";
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
    given[s.substr(0, dot)][s.substr(dot + 1, eq - dot - 1)] = s.substr(eq + 1);
  }
  for (const auto& [solver, kv] : given) {
    bool listed = false;
    for (const auto& n : names) listed |= n == solver;
    if (!listed) throw Error(fmt::format("--set {}.*: solver '{}' is not in --solvers", solver, solver));
  }
  std::vector<SolverJob> jobs;
  for (const std::string& n : names) {
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
  return fmt::format("{}|{}|{}|{}|{}|warm={}|threads={}|trace={}{}|repeat={}", dataset,
                     p.meta.name, job.entry->name, job.settings.ToString(), opt.budget.ToString(),
                     ToString(opt.warm), opt.threads, opt.trace_every,
                     opt.retime_without_tol ? "|retime" : "", repeat);
}

RunRecord JobRow(const ContactProblem& p, const SolverJob& job, const RunOptions& opt,
                 int repeat) {
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

RunRecord RunOne(const ContactProblem& p, const Evaluator& ev, const SolverJob& job,
                 const RunOptions& opt, const WarmStart* warm, int repeat,
                 WarmStart* solution) {
  if (std::string why = NotApplicableReason(*job.entry, p); !why.empty()) {
    RunRecord r = JobRow(p, job, opt, repeat);
    r.status = Outcome::kNotApplicable;
    r.message = std::move(why);
    return r;
  }
  if (job.entry->isolated && !InIsolatedJob())
    return RunIsolated(p, ev, job, opt, warm, repeat, solution);
  RunRecord r = JobRow(p, job, opt, repeat);

  std::unique_ptr<Solver> solver = job.entry->make();
  Vec v, lam;
  auto t0 = Clock::now();
  // The time budget as a deadline the solver can see inside a long iteration: what is left of
  // it in the runner's own account (setup + iterations, evaluations excluded), from now.
  auto hand_deadline = [&](Clock::time_point now, double spent_s) {
    if (opt.budget.time_ms > 0)
      solver->SetDeadline(now + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(
                                        opt.budget.time_ms * 1e-3 - spent_s)));
  };
  hand_deadline(t0, 0.0);
  Status st;
  Outcome ended = Outcome::kFailed;  // set where the harness ends a running solver
  try {
    st = solver->Setup(p, job.settings, warm);
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {  // a solver that throws fails this job, not the run
    r.setup_time_s = Seconds(t0, Clock::now());
    r.message = e.what();
    r.status = Outcome::kFailed;
    return r;
  }
  r.setup_time_s = Seconds(t0, Clock::now());
  r.threads_used = solver->ThreadsUsed();
  double solve = 0.0;
  int it = 0;
  const Budget& b = opt.budget;
  auto trace = [&](int iter) {
    solver->Current(v, lam);
    TracePoint tp;
    tp.iteration = iter;
    tp.time_s = r.setup_time_s + solve;
    tp.metrics = ev.Evaluate(v, lam);
    tp.stats = solver->Stats();
    r.trace.push_back(tp);
    return tp.metrics;
  };
  // Where res004 started: a run that grows past kGrowthBound times it has diverged (below).
  double start_res004 = 0.0;
  // A solver that throws from Current() or Stats() (a Python solver's exception) fails this
  // job, not the run.
  if (st == Status::kRunning) try {
    if (opt.trace_every > 0) {
      start_res004 = trace(0)[Metric::kRes004];
    } else {
      solver->Current(v, lam);
      start_res004 = ev.Evaluate(v, lam)[Metric::kRes004];
    }
    while (true) {
      if (it >= b.iters) {
        ended = Outcome::kMaxIterations;
        break;
      }
      const int k = ChunkSize(*solver, opt, it, r.setup_time_s + solve, solve);
      t0 = Clock::now();
      hand_deadline(t0, r.setup_time_s + solve);
      int done = 1;
      try {
        st = k == 1 ? solver->Iterate() : solver->IterateChunk(k, done);
      } catch (const Interrupted&) {
        throw;
      } catch (const std::exception& e) {
        st = Status::kFailed;
        r.message = e.what();
      }
      solve += Seconds(t0, Clock::now());
      it += std::max(done, 1);
      if (st != Status::kRunning) break;
      const bool want_trace = opt.trace_every > 0 && it % opt.trace_every == 0;
      const bool want_tol = b.tol > 0 && it % std::max(1, opt.tol_every) == 0;
      if (want_trace || want_tol) {
        Metrics m;
        if (want_trace) {
          m = trace(it);
        } else {
          solver->Current(v, lam);
          m = ev.Evaluate(v, lam);
        }
        if (want_tol && m[b.tol_metric] <= b.tol) {
          ended = Outcome::kConverged;
          break;
        }
        if (Exploded(m[Metric::kRes004], start_res004)) {
          st = Status::kDiverged;
          r.message = GrowthMessage(m[Metric::kRes004], start_res004, it);
          break;
        }
      }
      if (b.time_ms > 0 && (r.setup_time_s + solve) * 1e3 >= b.time_ms) {
        ended = Outcome::kTimeLimit;
        break;
      }
    }
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    st = Status::kFailed;
    r.message = e.what();
  }
  r.iterations = it;
  r.solve_time_s = solve;
  r.total_time_s = r.setup_time_s + solve;
  if (r.message.empty()) r.message = solver->message();
  for (const auto& [key, value] : solver->Info())
    r.solver_info += fmt::format("{}{}={:g}", r.solver_info.empty() ? "" : ";", key, value);
  if (st != Status::kNotApplicable && st != Status::kFailed) {
    try {
      solver->Current(v, lam);
    } catch (const Interrupted&) {
      throw;
    } catch (const std::exception& e) {
      st = Status::kFailed;
      r.message = e.what();
    }
  }
  if (st != Status::kNotApplicable && st != Status::kFailed) {
    r.final_metrics = ev.Evaluate(v, lam);
    if (!lam.allFinite() && st != Status::kDiverged) {
      st = Status::kDiverged;
      r.message = "non-finite multiplier";
    }
    // A finite λ can still give a non-finite v or residual (an iterate or a problem scaled so
    // far that the residual overflows): no status but diverged may carry a NaN into the results.
    if (st != Status::kDiverged) {
      for (std::size_t k = 0; k < kNumMetrics; ++k) {
        const Metric m = static_cast<Metric>(k);
        // fb_aa = −log10(error) is +inf at an exact solution: not a sign of divergence. The
        // dynamics residuals (dyn, primal, dual) have no meaning on a local problem: NaN there.
        const bool defined =
            m != Metric::kFbAA &&
            (p.form == ProblemForm::kGlobal ||
             (m != Metric::kDyn && m != Metric::kPrimal && m != Metric::kDual));
        if (defined && !std::isfinite(r.final_metrics[m])) {
          st = Status::kDiverged;
          r.message = fmt::format("non-finite final {}", kMetricNames[static_cast<int>(m)]);
          break;
        }
      }
      if (st != Status::kDiverged && !v.allFinite()) {
        st = Status::kDiverged;
        r.message = "non-finite velocity";
      }
      if (st != Status::kDiverged && Exploded(r.final_metrics[Metric::kRes004], start_res004)) {
        st = Status::kDiverged;
        r.message = GrowthMessage(r.final_metrics[Metric::kRes004], start_res004, it);
      }
    }
    if (p.reference && st != Status::kDiverged) r.lambda_err = RelErr(lam, p.reference->lambda);
    if (solution) *solution = {v, lam};
  }
  if (opt.trace_every > 0 && !r.trace.empty() && r.trace.back().iteration != it &&
      st != Status::kNotApplicable && st != Status::kFailed) {
    TracePoint tp;  // the final point always closes the trace
    tp.iteration = it;
    tp.time_s = r.total_time_s;
    tp.metrics = r.final_metrics;
    tp.stats = solver->Stats();
    r.trace.push_back(tp);
  }
  r.status = ToOutcome(st, ended, b, r);
  if (r.status == Outcome::kStopped && r.message.empty())
    r.message = b.tol > 0 ? fmt::format("the solver stopped with {} {:.3g} above the run's "
                                        "tolerance {:.3g}",
                                        kMetricNames[static_cast<int>(b.tol_metric)],
                                        r.final_metrics[b.tol_metric], b.tol)
                          : std::string("the solver stopped; the run sets no tolerance");
  if (opt.retime_without_tol && b.tol > 0 && r.iterations > 0) {
    RunOptions again = opt;
    again.budget.iters = r.iterations;
    again.budget.tol = 0.0;
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

}  // namespace ncp
