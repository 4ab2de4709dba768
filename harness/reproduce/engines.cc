// `reproduce engines`: the solvers that robotics engines ship (Bullet's, ODE's and DART's boxed-LCP
// solvers, solvers/engines) as peers of ours on the same frozen problems: the fclib samples and
// every shipped default dataset. Each peer solves its relaxation (the friction disk replaced by a
// box, the normal row without De Saxcé's term); the evaluator measures it on the exact Coulomb
// problem, and the physics that the relaxation costs is measured against the exact solution that
// our best solver reaches: tangential-velocity error, spurious normal velocity (gliding), the
// contact-force direction error and the violation of maximal dissipation.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "common/file_write.h"
#include "harness/markdown.h"
#include "harness/metrics/evaluator.h"
#include "harness/reproduce/plot_script.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/protocol_records.h"
#include "harness/thread_limits.h"
#include "harness/reproduce/trace_study.h"
#include "harness/runner.h"
#include "problems/io/fclib_io.h"
#include "solvers/registry.h"

namespace ncp {
namespace {
namespace engines {

// Every run's budget (the peers' and ours): the Measure call and the report's text read them.
constexpr int kIters = 500;
constexpr double kTimeMs = 1000;
// Our run that reaches this res004 is the exact solution the physics errors are measured against.
constexpr double kExactRes = 1e-8;
// A run has converged on its own (its relaxation's answer) at the first trace point whose res004
// is within this factor of its final one.
constexpr double kPlateau = 1.01;
// Ours: the candidates for "our best" on each dataset (admm-full takes global problems only).
const char* kOurs[] = {"nnewton", "pgs", "admm-full"};
const char* kDefaults[] = {"random-small", "random-large", "laikago_drop", "sliding_cubes",
                           "bolt_nut",     "dish_piling",  "soft_mat",     "cable"};

std::vector<std::string> EnginePeers() {
  std::vector<std::string> names;
  for (const SolverEntry& e : Solvers())
    if (e.name.starts_with("bullet:") || e.name.starts_with("ode:") || e.name.starts_with("dart:"))
      names.push_back(e.name);
  return names;
}

struct Input {
  std::string part;  // the dataset's name
  std::string path;
};

std::vector<Input> Inputs() {
  std::vector<Input> in;
  const std::filesystem::path root(NCPBENCH_SOURCE_DIR);
  std::vector<std::filesystem::path> fclib;
  if (std::filesystem::is_directory(root / "datasets/fclib"))
    for (const auto& f : std::filesystem::directory_iterator(root / "datasets/fclib"))
      if (f.path().extension() == ".hdf5") fclib.push_back(f.path());
  std::sort(fclib.begin(), fclib.end());
  for (const auto& f : fclib) in.push_back({"fclib-" + f.stem().string(), f.string()});
  for (const char* d : kDefaults)
    in.push_back({d, (root / "datasets/default" / (std::string(d) + ".h5")).string()});
  return in;
}

// The physics a relaxed solution λ gets wrong against the exact one λ*, over the contacts:
// largest ‖u_t − u_t*‖, largest |u_n| of a pushing contact (λ_n > 0: the exact problem has u_n = 0
// there; a CCP's u_n = μ‖u_t‖ is its "gliding"), and the angle between λ_i and λ*_i in degrees,
// averaged with weights ‖λ*_i‖ (a largest angle would be that of the weakest contact).
struct PhysicsError {
  double slip = NAN, glide = NAN, angle = NAN;
};

PhysicsError Errors(const ContactProblem& p, const Evaluator& ev, const Vec& lambda,
                    const Vec& exact) {
  PhysicsError out;
  if (lambda.size() != p.num_rows() || exact.size() != p.num_rows() || !lambda.allFinite())
    return out;
  const Vec u = ev.ConstraintVelocity(lambda), us = ev.ConstraintVelocity(exact);
  double lambda_scale = 0.0, weight = 0.0, weighted = 0.0;
  for (const Constraint& c : p.constraints)
    if (c.type == ConstraintType::kContact) lambda_scale = std::max(lambda_scale, lambda[c.row]);
  out = {0.0, 0.0, 0.0};
  for (const Constraint& c : p.constraints) {
    if (c.type != ConstraintType::kContact) continue;
    out.slip = std::max(out.slip, (u.segment<2>(c.row + 1) - us.segment<2>(c.row + 1)).norm());
    if (lambda[c.row] > 1e-12 * lambda_scale) out.glide = std::max(out.glide, std::abs(u[c.row]));
    const Eigen::Vector3d a = lambda.segment<3>(c.row), b = exact.segment<3>(c.row);
    if (b.norm() > 0) {
      const double cosine =
          a.norm() > 0 ? std::clamp(a.dot(b) / (a.norm() * b.norm()), -1.0, 1.0) : -1.0;
      weighted += b.norm() * std::acos(cosine) * 180.0 / M_PI;
      weight += b.norm();
    }
  }
  out.angle = weight > 0 ? weighted / weight : 0.0;
  return out;
}

// Time and res004 at the run's own convergence (kPlateau), from its trace. The starting point
// (iteration 0) does not count: a peer whose answer is worse than λ = 0 would otherwise be
// credited with λ = 0's residual.
void ObservePlateau(RunRecord& r) {
  if (r.trace.empty()) return;
  const double final_res = r.trace.back().metrics[Metric::kRes004];
  for (const TracePoint& tp : r.trace)
    if ((tp.iteration > 0 || &tp == &r.trace.back()) &&
        tp.metrics[Metric::kRes004] <= kPlateau * final_res) {
      ObserveRun(r, "own_s", tp.time_s);
      ObserveRun(r, "own_res004", tp.metrics[Metric::kRes004]);
      ObserveRun(r, "own_iter", tp.iteration);
      return;
    }
}

void MeasureProblem(const ContactProblem& p, const std::string& part,
                    const std::vector<std::string>& peers, const RunOptions& ro,
                    const ReproduceOptions& opt) {
  const Evaluator ev(p);
  // Ours first: the best of them that reaches kExactRes gives the exact solution.
  Vec exact;
  double exact_res = kExactRes;
  std::vector<RunRecord> rows;
  for (const char* name : kOurs) {
    const SolverEntry& e = FindSolver(name);
    WarmStart sol;
    RunRecord r =
        RunOne(p, ev, SolverJob{&e, Settings::Parse(name, e.settings, {})}, ro, nullptr, 0, &sol);
    const double res = r.final_metrics[Metric::kRes004];
    if (std::isfinite(res) && res <= exact_res && sol.lambda.size() == p.num_rows()) {
      exact = sol.lambda;
      exact_res = res;
    }
    rows.push_back(std::move(r));
  }
  for (const std::string& name : peers) {
    const SolverEntry& e = FindSolver(name);
    WarmStart sol;
    RunRecord r =
        RunOne(p, ev, SolverJob{&e, Settings::Parse(name, e.settings, {})}, ro, nullptr, 0, &sol);
    if (exact.size() > 0) {
      const PhysicsError err = Errors(p, ev, sol.lambda, exact);
      ObserveRun(r, "slip_err", err.slip);
      ObserveRun(r, "glide", err.glide);
      ObserveRun(r, "angle_deg", err.angle);
    }
    rows.push_back(std::move(r));
  }
  for (RunRecord& r : rows) {
    ObservePlateau(r);
    ObserveRun(r, "exact_res004", exact.size() > 0 ? exact_res : NAN);
    ThinTrace(r);
    Record(opt, std::move(r), part, p.meta.name.empty() ? part : "");
  }
}

void Measure(const ReproduceOptions& opt, ProtocolRecords& rec) {
  const int cases = opt.cases > 0 ? opt.cases : 2;
  const std::vector<std::string> peers = EnginePeers();
  rec.Observe("setup", "cases", cases);
  rec.Note("setup", "peers", fmt::format("{}", fmt::join(peers, ",")));
  // Each peer with the library and precision it ran in (its entry's description ends with them).
  std::vector<std::string> libraries;
  for (const std::string& name : peers) {
    const std::string& d = FindSolver(name).description;
    const std::size_t open = d.rfind('[');
    libraries.push_back(open != std::string::npos && d.back() == ']'
                            ? fmt::format("{} ({})", name, d.substr(open + 1, d.size() - open - 2))
                            : name);
  }
  rec.Note("setup", "peer_libraries", fmt::format("{}", fmt::join(libraries, ", ")));
  const RunOptions ro = StudyRunOptions(opt, kIters, kTimeMs);
  const SolverThreadScope threads(1);
  int k = 0;
  for (const Input& in : Inputs()) {
    const std::string key = fmt::format("input_{}", k++);
    rec.Note("inputs", key, in.part);
    if (!std::filesystem::exists(in.path)) {
      rec.Note("inputs", key + "_missing", "not found (make datasets writes the default ones)");
      continue;
    }
    const std::vector<ContactProblem> all = LoadProblems(in.path);
    // `cases` problems spread over the dataset (its frames or cases from first to last).
    const int n = static_cast<int>(all.size()), take = std::min(cases, n);
    rec.Observe("inputs", key + "_problems", n);
    rec.Observe("inputs", key + "_taken", take);
    for (int c = 0; c < take; ++c) {
      const int i = take == 1 ? 0 : c * (n - 1) / (take - 1);
      MeasureProblem(all[i], in.part, peers, ro, opt);
    }
    if (!opt.quiet) std::fprintf(stderr, "engines: %s done\n", in.part.c_str());
  }
}

std::string Cell(const std::vector<double>& v, const char* fmt_spec, double scale = 1.0) {
  std::vector<double> finite;
  for (double x : v)
    if (std::isfinite(x)) finite.push_back(x * scale);
  if (finite.empty()) return "n/a";
  return fmt::format(fmt::runtime(fmt_spec), Median(finite));
}

// The peers, what is measured and how.
std::string Setting(const ProtocolRecords& rec) {
  const int cases = static_cast<int>(rec.Value("setup", "cases"));
  return fmt::format(
      "Peers: {}. Each solves the boxed LCP of the problem (solvers/common/boxed_lcp.h: 2 "
      "tangent rows per contact bounded by ±μλ_n through the friction index, the engines' "
      "box; the normal row without De Saxcé's μ‖u_t‖), and the evaluator measures its answer "
      "on the exact Coulomb problem. Ours: {}. Up to {} problems per dataset (spread from "
      "first to last), every run single-threaded, at most {} iterations or {:g} ms, stopping "
      "at res004 ≤ 1e-10; a pivoting peer's run is its one solve.\n\n"
      "**own convergence**: the first trace point whose res004 is within {:g}× of the run's "
      "final one (the relaxation's answer for a peer); its time and res004 are medians over "
      "the problems. **Physics errors** against the exact solution, the best of ours that "
      "reached res004 ≤ {:.0e} on the problem (none: n/a): slip = largest ‖u_t − u_t*‖ over "
      "the contacts; glide = largest |u_n| of a contact with λ_n > 0 (0 in the exact "
      "problem); angle = the angle between a contact's force and the exact one, averaged "
      "with the exact forces' magnitudes as weights; "
      "dissipation = the maximal-dissipation metric |μλ_n‖u_t‖ + λ_t·u_t| (max over "
      "contacts). All four at the run's final iterate (within 1% of its own-convergence "
      "residual); medians over the problems of each dataset. **best** of ours: the most "
      "problems at res004 ≤ 1e-6, then the shortest median time to own convergence.\n\n",
      rec.Has("setup", "peer_libraries") ? rec.Text("setup", "peer_libraries")
                                         : rec.Text("setup", "peers"),
      fmt::join(kOurs, ", "), cases, kIters, kTimeMs, kPlateau, kExactRes);
}

// Our best solver on a dataset: the most problems at res004 ≤ 1e-6, then the shortest median
// time to own convergence.
std::string BestOfOurs(const std::map<std::string, std::vector<const RunRecord*>>& by) {
  std::string best;
  std::pair<int, double> best_key = {-1, 0.0};
  for (const char* s : kOurs) {
    const auto it = by.find(s);
    if (it == by.end()) continue;
    int solved = 0;
    std::vector<double> own;
    for (const RunRecord* r : it->second) {
      solved += r->final_metrics[Metric::kRes004] <= 1e-6 && RanToEnd(r->status);
      own.push_back(RunObservation(*r, "own_s", INFINITY));
    }
    const std::pair<int, double> key = {solved, -Median(own)};
    if (key > best_key) best_key = key, best = s;
  }
  return best;
}

// Dataset k's section: its table of every solver's runs; each counted run adds a CSV line.
std::string DatasetSection(const ProtocolRecords& rec, int k, std::ostringstream& csv) {
  const std::string key = fmt::format("input_{}", k);
  const std::string& part = rec.Text("inputs", key);
  std::string md = markdown::Heading(2, part);
  if (rec.Has("inputs", key + "_missing")) {
    return md + "Not run: " + rec.Text("inputs", key + "_missing") + ".\n\n";
  }
  const std::vector<const RunRecord*> runs = rec.Part(part);
  int exact = 0;
  std::map<std::string, std::vector<const RunRecord*>> by;
  std::vector<std::string> order;
  for (const RunRecord* r : runs) {
    if (!by.count(r->solver)) order.push_back(r->solver);
    by[r->solver].push_back(r);
  }
  const int taken = static_cast<int>(rec.Value("inputs", key + "_taken"));
  if (!by.empty())
    for (const RunRecord* r : by.begin()->second)
      exact += std::isfinite(RunObservation(*r, "exact_res004"));
  md += fmt::format("{} of {} problems; exact solution on {} of them.\n\n", taken,
                    rec.Value("inputs", key + "_problems"), exact);
  markdown::Table t({"solver", "counted / runs", "own convergence [ms]", "res004 there",
                     "slip [m/s]", "glide [m/s]", "angle [°]", "dissipation"},
                    "llrrrrrr");
  const std::string best = BestOfOurs(by);
  std::string refused;
  for (const std::string& s : order) {
    std::vector<double> own_ms, own_res, slip, glide, angle, diss;
    int ran = 0;
    for (const RunRecord* r : by[s]) {
      if (!RanToEnd(r->status)) {
        if (refused.find(s + ":") == std::string::npos)
          refused += fmt::format("- {}: {} — {}\n", s, ToString(r->status), r->message);
        continue;
      }
      ++ran;
      own_ms.push_back(1e3 * RunObservation(*r, "own_s"));
      own_res.push_back(RunObservation(*r, "own_res004"));
      slip.push_back(RunObservation(*r, "slip_err"));
      glide.push_back(RunObservation(*r, "glide"));
      angle.push_back(RunObservation(*r, "angle_deg"));
      diss.push_back(r->final_metrics[Metric::kDissipation]);
      csv << fmt::format("{},{},{:.6g},{:.6g},{:.6g}\n", part, s, own_ms.back(), own_res.back(),
                         slip.back());
    }
    const bool ours = std::find(std::begin(kOurs), std::end(kOurs), s) != std::end(kOurs);
    t.Row({ours ? (s == best ? "**ours: " + s + " (best)**" : "ours: " + s) : s,
           fmt::format("{} / {}", ran, by[s].size()), Cell(own_ms, "{:.3g}"),
           Cell(own_res, "{:.2e}"), ours ? "—" : Cell(slip, "{:.2e}"),
           ours ? "—" : Cell(glide, "{:.2e}"), ours ? "—" : Cell(angle, "{:.3g}"),
           Cell(diss, "{:.2e}")});
  }
  md += t.str();
  if (!refused.empty()) md += "\nRuns that did not count (first reason per solver):\n\n" + refused;
  md += "\n";
  return md;
}

// The CSV of every counted run and, when matplotlib is there, its figure.
std::string Figure(const std::string& out_dir, const std::string& csv) {
  std::filesystem::create_directories(out_dir);
  const std::string csv_path = out_dir + "/engines.csv";
  const std::string png = out_dir + "/engines.png";
  WriteFileAtomically(csv_path, csv);
  return RunPlotScript("engines.py", {csv_path, "-o", png}).has_value()
             ? fmt::format(
                   "Figure: `{}` (time to own convergence against res004 there, one point "
                   "per run). Data: `{}`.\n",
                   png, csv_path)
             : fmt::format(
                   "Data: `{}` (the figure needs /usr/bin/python3 with matplotlib: "
                   "plots/engines.py).\n",
                   csv_path);
}

std::string Report(const ReportInput& in) {
  std::string md =
      markdown::Heading(1, "engines — the engines' boxed-LCP solvers on our frozen problems") +
      Setting(in.records);
  std::ostringstream csv;
  csv << "dataset,solver,own_ms,own_res004,slip\n";
  for (int k = 0; in.records.Has("inputs", fmt::format("input_{}", k)); ++k)
    md += DatasetSection(in.records, k, csv);
  md += Figure(in.out_dir, csv.str());
  return md;
}

}  // namespace engines
}  // namespace

Protocol MakeEngines() {
  using namespace engines;
  if (EnginePeers().empty())
    return {.id = "engines",
            .title = "the engines' boxed-LCP solvers (Bullet, ODE, DART) against ours",
            .setting = "fclib samples and every shipped default dataset",
            .missing =
                "Bullet and DART (libbullet-dev, libdart-dev not found at configure time, "
                "or NCPBENCH_ENGINES=OFF)"};
  return {.id = "engines",
          .title =
              "the engines' boxed-LCP solvers (Bullet, ODE, DART) against ours: time, exact-"
              "problem residual and the physics the relaxation costs",
          .setting =
              "fclib samples and every shipped default dataset, 2 problems each (--cases "
              "N); every engine peer built in, and nnewton, pgs, admm-full",
          .measure = Measure,
          .report = Report,
          .min_cases = 2};
}

}  // namespace ncp
