// Solvers from Python: the registry, one job (solve) and whole runs into a results file (run),
// both through the harness runner, the one place that times solvers. Built-in and Python
// solvers mix in one call; C++ runs with the GIL released.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <cmath>
#include <type_traits>

#include "common/error.h"
#include "harness/cli/split.h"
#include "common/file_kind.h"
#include "harness/inputs.h"
#include "harness/output_path.h"
#include "harness/plugin.h"
#include "harness/run_options.h"
#include "harness/thread_limits.h"
#include "python/bindings.h"
#include "python/py_arrays.h"
#include "python/py_solver.h"

namespace ncp::py {
namespace {

// An Interrupted from the harness back into Python as the KeyboardInterrupt it came from.
[[noreturn]] void RaiseKeyboardInterrupt() {
  pyb::gil_scoped_acquire gil;
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw pyb::error_already_set();
}

struct SolveResult {
  RunRecord record;
  Vec v, lambda;
};

// A setting value as the command line would spell it.
std::string SettingText(pyb::handle v) {
  if (pyb::isinstance<pyb::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  return pyb::str(v);
}

pyb::dict MetricDict(const Metrics& m) {
  pyb::dict d;
  for (std::size_t i = 0; i < kNumMetrics; ++i) d[kMetricNames[i]] = m.value[i];
  return d;
}

pyb::dict TraceDict(const std::vector<TracePoint>& trace) {
  const pyb::ssize_t n = static_cast<pyb::ssize_t>(trace.size());
  pyb::array_t<int> it(n);
  pyb::array_t<double> t(n);
  for (pyb::ssize_t k = 0; k < n; ++k)
    it.mutable_at(k) = trace[k].iteration, t.mutable_at(k) = trace[k].time_s;
  pyb::dict d;
  d["iteration"] = it;
  d["time_s"] = t;
  for (std::size_t i = 0; i < kNumMetrics; ++i) {
    pyb::array_t<double> col(n);
    for (pyb::ssize_t k = 0; k < n; ++k) col.mutable_at(k) = trace[k].metrics.value[i];
    d[kMetricNames[i]] = col;
  }
  // The solver's statistics under their results-file names, present only when some point
  // reports them (as the results store writes them).
  const auto add_stat = [&](const char* name, auto member, auto reported) {
    using T = std::remove_cvref_t<decltype(trace[0].stats.*member)>;
    bool any = false;
    for (const TracePoint& tp : trace) any |= reported(tp.stats.*member);
    if (!any) return;
    pyb::array_t<T> col(n);
    for (pyb::ssize_t k = 0; k < n; ++k) col.mutable_at(k) = trace[k].stats.*member;
    d[name] = col;
  };
  const auto value = [](double x) { return !std::isnan(x); };
  const auto count = [](int x) { return x >= 0; };
  add_stat("stat_primal_residual", &SolverStats::primal_residual, value);
  add_stat("stat_dual_residual", &SolverStats::dual_residual, value);
  add_stat("stat_penalty", &SolverStats::penalty, value);
  add_stat("stat_inner_iterations", &SolverStats::inner_iterations, count);
  add_stat("stat_refactorizations", &SolverStats::refactorizations, count);
  add_stat("stat_line_search_steps", &SolverStats::line_search_steps, count);
  return d;
}

RunArgs Args(int iters, double time_ms, double tol, const std::string& tol_metric, int repeat,
             int threads, int trace, const std::string& warm, double step_tol) {
  return {iters, time_ms, tol, tol_metric, repeat, threads, trace, warm, step_tol};
}

// Settings {"key": value} of one solver, parsed and checked as --set solver.key=value is; a key
// given twice ("omega" and "pgs.omega") is refused as --set refuses it.
Settings ParseSettings(const SolverEntry& e, const pyb::dict& given) {
  std::map<std::string, std::string> kv;
  for (auto [k, v] : given) {
    std::string key = pyb::str(k);
    if (key.rfind(e.name + ".", 0) == 0) key = key.substr(e.name.size() + 1);
    const std::string text = SettingText(v);
    if (const auto [it, added] = kv.emplace(key, text); !added)
      throw Error(fmt::format("settings {}.{}: given twice ({} and {}); set it once", e.name, key,
                              it->second, text));
  }
  return Settings::Parse(e.name, e.settings, kv);
}

// Ctrl-C (or any signal Python handles) as the harness' Interrupted: checked between jobs and,
// inside a long job, between its iterations (RunOptions::poll).
void CheckPythonSignals() {
  pyb::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    PyErr_Clear();
    throw Interrupted();
  }
}

SolveResult Solve(const std::shared_ptr<ContactProblem>& problem, pyb::object solver,
                  pyb::dict settings, const RunOptions& opt, pyb::object warm) {
  if (!problem) throw Error("problem: None: must be a Problem");
  const RegistryFreeze frozen;  // from the lookup on: the job points into the registry
  const ContactProblem& p = *problem;
  const ProblemOwners owners(problem, {&p});
  SolverEntry python_entry;
  const SolverEntry* entry = nullptr;
  if (pyb::isinstance<pyb::str>(solver)) {
    entry = &FindSolver(solver.cast<std::string>());
  } else if (IsPythonSolver(solver)) {
    python_entry = MakePythonEntry(solver);
    entry = &python_entry;
  } else {
    throw Error("solver: must be a solver name or an object with setup, iterate and current");
  }
  SolverJob job{entry, ParseSettings(*entry, settings)};
  WarmStart ws;
  const WarmStart* w = nullptr;
  if (pyb::isinstance<pyb::str>(warm)) {
    if (warm.cast<std::string>() != "reference" || !p.reference)
      throw Error(
          fmt::format("warm = {}: must be 'reference' (on a problem with one), a (v, lam) "
                      "pair or None",
                      std::string(pyb::str(warm))));
    ws = {p.reference->v, p.reference->lambda};
    w = &ws;
  } else if (!warm.is_none()) {
    if (!(pyb::isinstance<pyb::tuple>(warm) || pyb::isinstance<pyb::list>(warm)) ||
        pyb::len(warm) != 2)
      throw Error(fmt::format("warm = {}: must be 'reference', a (v, lam) pair or None",
                              std::string(pyb::str(warm)).substr(0, 80)));
    const pyb::sequence vl = warm.cast<pyb::sequence>();
    // Finite, as an iterate the evaluator scores: a NaN start was a silent `diverged`.
    ws = {ToFiniteVecOfLength(vl[0], "warm[0] (v)", p.num_dofs(), p.form == ProblemForm::kLocal),
          ToFiniteVecOfLength(vl[1], "warm[1] (lambda)", p.num_rows(), false)};
    w = &ws;
  }
  SolveResult out;
  WarmStart solution;
  RunOptions o = opt;
  o.poll = CheckPythonSignals;
  {
    pyb::gil_scoped_release nogil;
    CheckProblem(p);
    CheckToleranceMetric(p, opt.budget, "");
    SetSolverThreads(opt.threads);
    const Evaluator ev(p);
    try {
      out.record = RunOne(p, ev, job, o, w, 0, &solution);
    } catch (const Interrupted&) {
      RaiseKeyboardInterrupt();
    }
  }
  out.v = std::move(solution.v);
  out.lambda = std::move(solution.lambda);
  return out;
}

std::string Run(const std::vector<std::string>& datasets, pyb::list solvers, pyb::dict settings,
                const RunOptions& opt, const std::string& out, bool quiet, bool skip_invalid) {
  const RegistryFreeze frozen;  // from the lookups on: the jobs point into the registry
  // Before any job, as `ncpbench run` checks -o: an empty path ran every job and then failed.
  CheckOutputNamed("out", out);
  for (const std::string& d : datasets) RefuseNulInPath(d);
  // Jobs in the order given; settings "solver.key" go to their solver, checked as --set is.
  std::vector<SolverEntry> python_entries;
  python_entries.reserve(solvers.size());  // jobs point into it
  std::vector<std::string> names;
  for (pyb::handle s : solvers) {
    if (pyb::isinstance<pyb::str>(s)) {
      names.push_back(s.cast<std::string>());
    } else if (IsPythonSolver(s)) {
      SolverEntry entry = MakePythonEntry(pyb::reinterpret_borrow<pyb::object>(s));
      for (const SolverEntry& e : Solvers())
        if (e.name == entry.name)
          throw Error(
              fmt::format("solver '{}': already registered (names must be unique)", e.name));
      for (const SolverEntry& e : python_entries)
        if (e.name == entry.name)  // one row per job name: the second would replace the first
          throw Error(
              fmt::format("--solvers {}: given twice (two Python solvers of this name)", e.name));
      python_entries.push_back(std::move(entry));
      names.push_back(python_entries.back().name);
    } else {
      throw Error(
          "solvers: each must be a solver name or an object with setup, iterate and current");
    }
  }
  std::vector<std::string> sets;
  for (auto [k, v] : settings) {
    const std::string key = pyb::str(k);
    if (pyb::isinstance<pyb::dict>(v)) {  // {"pgs": {"omega": 1.2}}
      for (auto [k2, v2] : v.cast<pyb::dict>())
        sets.push_back(key + "." + std::string(pyb::str(k2)) + "=" + SettingText(v2));
    } else {  // {"pgs.omega": 1.2}
      sets.push_back(key + "=" + SettingText(v));
    }
  }
  std::vector<std::string> builtin_names, builtin_sets;
  std::map<std::string, std::map<std::string, std::string>> python_sets;
  for (const std::string& n : names) {
    bool python = false;
    for (const SolverEntry& e : python_entries) python |= e.name == n;
    if (!python) builtin_names.push_back(n);
  }
  for (const std::string& s : sets) {
    const std::size_t dot = s.find('.'), eq = s.find('=');
    bool python = false;
    if (dot != std::string::npos && eq != std::string::npos && dot < eq)
      for (const SolverEntry& e : python_entries)
        if (e.name == s.substr(0, dot)) {
          const std::string key = s.substr(dot + 1, eq - dot - 1);
          // {"x.k": 2, "x": {"k": 3}} named one setting twice: refused as --set twice is.
          if (const auto [it, added] = python_sets[e.name].emplace(key, s.substr(eq + 1)); !added)
            throw Error(fmt::format("--set {}.{}: given twice ({} and {}); set it once", e.name,
                                    key, it->second, s.substr(eq + 1)));
          python = true;
        }
    if (!python) builtin_sets.push_back(s);
  }
  std::vector<SolverJob> builtin;
  if (!builtin_names.empty() || !builtin_sets.empty())
    builtin = MakeSolverJobs(builtin_names, builtin_sets);
  std::vector<SolverJob> jobs;
  std::size_t next_builtin = 0;
  for (const std::string& n : names) {
    const SolverEntry* py = nullptr;
    for (const SolverEntry& e : python_entries)
      if (e.name == n) py = &e;
    if (py)
      jobs.push_back({py, Settings::Parse(py->name, py->settings, python_sets[py->name])});
    else
      jobs.push_back(builtin[next_builtin++]);
  }
  if (jobs.empty()) throw Error("--solvers: empty list");
  pyb::gil_scoped_release nogil;
  const std::lock_guard<std::recursive_mutex> files(
      FileMutex());  // one run at a time reads and writes
  const auto inputs =
      std::make_shared<const LoadedInputs>(LoadInputs(datasets, skip_invalid, quiet, out));
  const LoadedInputs& in = *inputs;
  for (const SkippedInput& s : in.skipped) std::fprintf(stderr, "skipped: %s\n", s.reason.c_str());
  RunOptions o = opt;
  if (!in.skipped.empty()) o.run_attrs["skipped_inputs"] = SkippedAttr(in.skipped);
  // Ctrl-C raises as KeyboardInterrupt between jobs or iterations: the output is left
  // resumable. A Python solver that keeps the problem its setup() got keeps it alive.
  o.between_jobs = o.poll = CheckPythonSignals;
  std::vector<const ContactProblem*> problems;
  for (const DatasetInput& d : in.data)
    for (const ContactProblem& p : d.problems) problems.push_back(&p);
  const ProblemOwners owners(inputs, std::move(problems));
  try {
    RunAll(in.data, jobs, o, out, quiet);
  } catch (const Interrupted&) {
    RaiseKeyboardInterrupt();
  }
  return out;
}

}  // namespace

void BindRun(pyb::module_& m) {
  m.def(
      "solvers",
      [] {
        pyb::list out;
        for (const SolverEntry& e : Solvers()) {
          pyb::dict settings;
          for (const SettingSpec& s : e.settings) settings[s.name.c_str()] = s.default_value;
          out.append(pyb::dict(pyb::arg("name") = e.name, pyb::arg("description") = e.description,
                               pyb::arg("local") = Describe(e.local),
                               pyb::arg("settings") = settings));
        }
        return out;
      },
      "every registered solver: name, description, local use, settings with their defaults");

  m.def("load_plugin", &LoadPlugin, pyb::arg("path"),
        "Loads a solver plug-in (as `ncpbench run --plugin`); returns the names it registered");

  pyb::class_<SolveResult>(m, "SolveResult", "One job's outcome, as a results file row holds it")
      .def_property_readonly(
          "status", [](const SolveResult& r) { return std::string(ToString(r.record.status)); })
      .def_property_readonly("message", [](const SolveResult& r) { return r.record.message; })
      .def_property_readonly("solver", [](const SolveResult& r) { return r.record.solver; })
      .def_property_readonly("settings", [](const SolveResult& r) { return r.record.settings; })
      .def_property_readonly("iterations", [](const SolveResult& r) { return r.record.iterations; })
      .def_property_readonly("setup_time",
                             [](const SolveResult& r) { return r.record.setup_time_s; })
      .def_property_readonly("solve_time",
                             [](const SolveResult& r) { return r.record.solve_time_s; })
      .def_property_readonly("total_time",
                             [](const SolveResult& r) { return r.record.total_time_s; })
      .def_property_readonly("threads_used",
                             [](const SolveResult& r) { return r.record.threads_used; })
      .def_property_readonly("info", [](const SolveResult& r) { return r.record.solver_info; })
      .def_property_readonly("lambda_err", [](const SolveResult& r) { return r.record.lambda_err; })
      .def_property_readonly(
          "metrics", [](const SolveResult& r) { return MetricDict(r.record.final_metrics); })
      .def_property_readonly(
          "trace", [](const SolveResult& r) { return TraceDict(r.record.trace); },
          "dict of arrays: iteration, time_s, every metric, and the stat_* columns the "
          "solver reports (results/README.md)")
      .def_property_readonly(
          "v", [](pyb::object s) { return VecView(s.cast<const SolveResult&>().v, s); })
      .def_property_readonly(
          "lam", [](pyb::object s) { return VecView(s.cast<const SolveResult&>().lambda, s); })
      .def("__repr__", [](const SolveResult& r) {
        // A failed job: its message says why (its count and time may be unknown, -1).
        const RunRecord& rec = r.record;
        if (rec.status == Outcome::kFailed)
          return fmt::format("<ncpbench.SolveResult {} {}: {}>", rec.solver, ToString(rec.status),
                             rec.message);
        return fmt::format("<ncpbench.SolveResult {} {} it={} t={:.3g}ms res004={:.3g}>",
                           rec.solver, ToString(rec.status), rec.iterations, rec.total_time_s * 1e3,
                           rec.final_metrics[Metric::kRes004]);
      });

  m.def(
      "solve",
      [](const std::shared_ptr<ContactProblem>& p, pyb::object solver, pyb::dict settings,
         int iters, double time_ms, double tol, const std::string& tol_metric, int trace,
         int tol_every, int threads, pyb::object warm, double step_tol) {
        RunOptions opt = MakeRunOptions(
            Args(iters, time_ms, tol, tol_metric, 1, threads, trace, "none", step_tol));
        if (tol_every < 1) throw Error(fmt::format("tol_every = {}: must be >= 1", tol_every));
        opt.tol_every = tol_every;
        return Solve(p, solver, settings, opt, warm);
      },
      pyb::arg("problem"), pyb::arg("solver") = "pgs", pyb::kw_only(),
      pyb::arg("settings") = pyb::dict(), pyb::arg("iters") = 1000, pyb::arg("time_ms") = 0.0,
      pyb::arg("tol") = 0.0, pyb::arg("tol_metric") = "res004", pyb::arg("trace") = 0,
      pyb::arg("tol_every") = 1, pyb::arg("threads") = 0, pyb::arg("warm") = pyb::none(),
      pyb::arg("step_tol") = 0.0,
      "Runs one solver (a name, or a Python solver object or class) on one problem through the "
      "harness runner: budgets, timing of setup/iterate only, final evaluation, trace.\n\n"
      "settings: {key: value} of the solver's settings (`ncpbench list solvers`); iters: "
      "iteration budget; time_ms: time budget, setup included (0: none); tol: stop when "
      "tol_metric <= tol (0: none); tol_metric: a metric name (`ncpbench list metrics`); "
      "trace: a trace point every this many iterations (0: none); tol_every: test the "
      "tolerances every this many iterations; threads: OpenMP threads (0: OMP_NUM_THREADS); "
      "warm: None, 'reference' (the problem's reference solution) or an initial (v, lambda); "
      "step_tol: stop when the velocity moved less than "
      "this since the last test, relative to itself (0: none; 002's residual). As "
      "`ncpbench run`'s options of the same names.");

  m.def(
      "run",
      [](pyb::object datasets, pyb::object solvers, pyb::dict settings, int iters, double time_ms,
         double tol, const std::string& tol_metric, int repeat, int threads, int trace,
         const std::string& warm, pyb::object out_arg, bool quiet, bool skip_invalid,
         double step_tol) {
        std::vector<std::string> paths;
        if (pyb::isinstance<pyb::str>(datasets) || pyb::hasattr(datasets, "__fspath__")) {
          paths.push_back(PathArg(datasets, "datasets"));
        } else {
          if (!pyb::isinstance<pyb::iterable>(datasets))
            throw Error("datasets: must be a path or a list of paths");
          for (pyb::handle d : datasets) paths.push_back(PathArg(d, "datasets[]"));
        }
        const std::string out = PathArg(out_arg, "out");
        const RunOptions opt = MakeRunOptions(
            Args(iters, time_ms, tol, tol_metric, repeat, threads, trace, warm, step_tol));
        pyb::list names;  // as -s: a comma-separated string, default the command line's
        if (solvers.is_none()) solvers = pyb::str("pgs,pj,apgd,admm-full");
        if (pyb::isinstance<pyb::str>(solvers)) {
          for (const std::string& n : cli::SplitComma(solvers.cast<std::string>(), "solvers"))
            names.append(n);
        } else {
          names = pyb::list(solvers);
        }
        return Run(paths, names, settings, opt, out, quiet, skip_invalid);
      },
      pyb::arg("datasets"), pyb::kw_only(), pyb::arg("solvers") = pyb::none(),
      pyb::arg("settings") = pyb::dict(), pyb::arg("iters") = 1000, pyb::arg("time_ms") = 0.0,
      pyb::arg("tol") = 0.0, pyb::arg("tol_metric") = "res004", pyb::arg("repeat") = 1,
      pyb::arg("threads") = 0, pyb::arg("trace") = 0, pyb::arg("warm") = "none",
      pyb::arg("out") = "results/runs/results.h5", pyb::arg("quiet") = true,
      pyb::arg("skip_invalid") = false, pyb::arg("step_tol") = 0.0,
      "`ncpbench run` from Python: datasets (paths or folders) x solvers (names and Python "
      "solvers) into the results file `out` (atomic, resumable). Returns `out`.\n\n"
      "solvers: a comma-separated string or a list (default pgs,pj,apgd,admm-full); settings: "
      "{\"solver.key\": value} as --set; iters, time_ms, tol, tol_metric, repeat, threads, "
      "trace, step_tol: as `ncpbench run`'s options of the same names; warm: "
      "none|reference|previous|guess; quiet: no progress lines; skip_invalid: run the valid "
      "inputs and list the invalid ones (default: refuse them all).");
}

}  // namespace ncp::py
