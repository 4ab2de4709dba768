#include "python/py_solver.h"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <mutex>

#include "common/error.h"
#include "python/py_arrays.h"

namespace ncp::py {
namespace {

// Owns a Python reference; dropped with the GIL held, whichever thread drops it.
struct Held {
  pyb::object obj;
  explicit Held(pyb::object o) : obj(std::move(o)) {}
  ~Held() {
    pyb::gil_scoped_acquire gil;
    obj = pyb::object();
  }
};

// A step status, as C++ solvers return it. "converged" is read as "stopped": the solver ends the
// run, and the harness decides from its final iterate whether the run's tolerance holds.
Status StatusFromPython(const pyb::handle& r, const std::string& solver, const char* method) {
  if (r.is_none()) return Status::kRunning;
  const std::string s = pyb::str(r);
  if (s == "converged") return Status::kStopped;
  for (Status st : {Status::kRunning, Status::kStopped, Status::kDiverged, Status::kFailed,
                    Status::kNotApplicable})
    if (s == ToString(st)) return st;
  throw Error(
      fmt::format("python solver '{}': {}() returned '{}': must be None, 'running', 'stopped' "
                  "(or 'converged': the harness checks the tolerance), 'diverged', 'failed' or "
                  "'not-applicable'",
                  solver, method, s));
}

// ProblemOwners' registrations, by problem (a solve() inside a setup() may register one twice).
struct OwnerRegistry {
  std::mutex mutex;
  std::multimap<const ContactProblem*, std::shared_ptr<const void>> owners;
};
OwnerRegistry& Owners() {
  static OwnerRegistry r;
  return r;
}

// The problem for Python: sharing its registered owner, else a copy of its own.
std::shared_ptr<ContactProblem> SharedProblem(const ContactProblem& p) {
  OwnerRegistry& r = Owners();
  {
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (const auto it = r.owners.find(&p); it != r.owners.end())
      return std::shared_ptr<ContactProblem>(std::const_pointer_cast<void>(it->second),
                                             const_cast<ContactProblem*>(&p));
  }
  return std::make_shared<ContactProblem>(p);
}

class PythonSolver : public Solver {
 public:
  PythonSolver(std::shared_ptr<Held> obj, std::string name) : obj_(std::move(obj)), name_(name) {}
  // A class whose construction raised: the job is `failed` with the exception, not the run.
  PythonSolver(std::string name, std::string construct_error)
      : name_(std::move(name)), construct_error_(std::move(construct_error)) {}

  Status Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) override {
    if (!obj_) {
      problem_ = &p;
      message_ = construct_error_;
      return Status::kFailed;
    }
    pyb::gil_scoped_acquire gil;
    return Call([&] {
      // The solver may keep it past the job: a handle that shares the problem's ownership.
      const std::shared_ptr<ContactProblem> view = SharedProblem(p);
      problem_ = &p;
      pyb::dict settings;
      for (const auto& [k, v] : ParseKeyValues(s.ToString())) settings[k.c_str()] = std::stod(v);
      pyb::object self = obj_->obj;
      pyb::object r;
      if (warm && pyb::hasattr(self, "warm_start"))
        self.attr("warm_start")(VecCopy(warm->v), VecCopy(warm->lambda));
      r = self.attr("setup")(view, settings);
      return StatusFromPython(r, name_, "setup");
    });
  }

  Status Iterate() override {
    pyb::gil_scoped_acquire gil;
    return Call([&] { return StatusFromPython(obj_->obj.attr("iterate")(), name_, "iterate"); });
  }

  void Current(Vec& v, Vec& lambda) const override {
    if (!obj_) {  // nothing was constructed: the zero iterate of a job that failed at setup
      v.resize(0);
      lambda = Vec::Zero(problem_ ? problem_->num_rows() : 0);
      return;
    }
    pyb::gil_scoped_acquire gil;
    try {
      const auto vl = obj_->obj.attr("current")().cast<std::pair<pyb::object, pyb::object>>();
      // Lengths as the problem's (v may be None: the evaluator then has none to score): a
      // wrong one is the solver's error, not a run with arrays of another size in its results.
      const ContactProblem& p = *problem_;
      v = ToVecOfLength(vl.first, fmt::format("python solver '{}': current()[0] (v)", name_),
                        p.num_dofs(), true);
      lambda =
          ToVecOfLength(vl.second, fmt::format("python solver '{}': current()[1] (lambda)", name_),
                        p.num_rows(), false);
    } catch (const pyb::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) throw Interrupted();
      throw Error(fmt::format("python solver '{}': current(): {}", name_, OneLine(e.what())));
    } catch (const pyb::cast_error&) {
      throw Error(fmt::format("python solver '{}': current(): must return (v, lam)", name_));
    }
  }

  // A Python exception's text on one line, without pybind's traceback ("\n\nAt:\n ...").
  static std::string OneLine(std::string s) {
    if (const std::size_t at = s.find("\n\nAt:"); at != std::string::npos) s.resize(at);
    for (char& c : s)
      if (c == '\n') c = ' ';
    return s;
  }

  std::vector<std::pair<std::string, double>> Info() const override {
    pyb::gil_scoped_acquire gil;
    if (!obj_ || !pyb::hasattr(obj_->obj, "info")) return {};
    try {
      const auto m = obj_->obj.attr("info")().cast<std::map<std::string, double>>();
      return {m.begin(), m.end()};
    } catch (const pyb::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) throw Interrupted();  // the user's, not info()'s
      return {};  // counters are optional: a bad info() gives none
    } catch (const std::exception&) {
      return {};
    }
  }

 private:
  // Python exceptions become this job's `failed` status with the exception as its message.
  template <class F>
  Status Call(F f) {
    try {
      Status st = f();
      if (st != Status::kRunning && pyb::hasattr(obj_->obj, "message"))
        message_ = pyb::str(obj_->obj.attr("message"));
      return st;
    } catch (const pyb::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) throw Interrupted();  // the user's, not the job's
      message_ = fmt::format("python: {}", OneLine(e.what()));
      return Status::kFailed;
    }
  }

  std::shared_ptr<Held> obj_;
  std::string name_, construct_error_;
  const ContactProblem* problem_ = nullptr;  // set up on; the harness keeps it for the job
};

}  // namespace

ProblemOwners::ProblemOwners(std::shared_ptr<const void> owner,
                             std::vector<const ContactProblem*> problems)
    : owner_(std::move(owner)), problems_(std::move(problems)) {
  OwnerRegistry& r = Owners();
  const std::lock_guard<std::mutex> lock(r.mutex);
  for (const ContactProblem* p : problems_) r.owners.emplace(p, owner_);
}

ProblemOwners::~ProblemOwners() {
  OwnerRegistry& r = Owners();
  const std::lock_guard<std::mutex> lock(r.mutex);
  for (const ContactProblem* p : problems_) {
    auto [first, last] = r.owners.equal_range(p);
    for (auto it = first; it != last; ++it)
      if (it->second == owner_) {
        r.owners.erase(it);
        break;
      }
  }
}

// A name as shown in a message: NUL and line breaks made visible, at most 80 characters.
static std::string OneLineName(std::string s) {
  for (char& c : s)
    if (c == '\0' || c == '\n' || c == '\r') c = '?';
  return s.size() > 80 ? s.substr(0, 80) + "..." : s;
}

bool IsPythonSolver(const pyb::handle& obj) {
  return pyb::hasattr(obj, "setup") && pyb::hasattr(obj, "iterate") && pyb::hasattr(obj, "current");
}

SolverEntry MakePythonEntry(const pyb::object& obj) {
  const bool is_class = pyb::isinstance<pyb::type>(obj);
  SolverEntry e;
  e.name = pyb::hasattr(obj, "name") ? std::string(pyb::str(obj.attr("name")))
           : is_class                ? std::string(pyb::str(obj.attr("__name__")))
                                     : std::string(pyb::str(pyb::type::of(obj).attr("__name__")));
  // A name as the built-ins' (it is a job key's part, a results column's value, a --set prefix):
  // a NUL, a comma or a newline made a run that could never merge.
  if (e.name.empty() ||
      e.name.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:") != std::string::npos)
    throw Error(
        fmt::format("python solver name '{}': must be letters, digits, '_', '-' and ':' "
                    "(not empty)",
                    OneLineName(e.name)));
  e.description = pyb::hasattr(obj, "description") ? std::string(pyb::str(obj.attr("description")))
                                                   : "python solver";
  if (pyb::hasattr(obj, "settings")) {
    for (auto [k, v] : pyb::dict(obj.attr("settings"))) {
      SettingSpec spec;
      spec.name = pyb::str(k);
      // Names as the built-ins' (they travel as "key=value,..."); defaults finite numbers.
      if (spec.name.empty() || spec.name.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
                                   "-") != std::string::npos)
        throw Error(
            fmt::format("python solver '{}': setting '{}': a name of letters, digits, "
                        "'_' and '-' only",
                        e.name, spec.name));
      const bool number = pyb::isinstance<pyb::int_>(v) || pyb::isinstance<pyb::float_>(v);
      spec.default_value = number ? v.cast<double>() : NAN;
      if (!std::isfinite(spec.default_value))
        throw Error(
            fmt::format("python solver '{}': setting '{}' = {}: its default must be a "
                        "finite number",
                        e.name, spec.name, std::string(pyb::repr(v))));
      spec.min = -INFINITY, spec.max = INFINITY;
      spec.help = "python solver setting";
      e.settings.push_back(spec);
    }
  }
  e.local = LocalUse::kAsStored;  // the solver decides: it may return "not-applicable"
  auto held = std::make_shared<Held>(obj);
  const std::string name = e.name;
  e.make = [held, is_class, name]() -> std::unique_ptr<Solver> {
    pyb::gil_scoped_acquire gil;
    // A class gives each job a fresh instance; an instance is set up again for each job.
    if (!is_class) return std::make_unique<PythonSolver>(held, name);
    try {
      return std::make_unique<PythonSolver>(std::make_shared<Held>(held->obj()), name);
    } catch (const pyb::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) throw Interrupted();
      return std::make_unique<PythonSolver>(
          name, fmt::format("python: constructing it: {}", PythonSolver::OneLine(e.what())));
    }
  };
  return e;
}

}  // namespace ncp::py
