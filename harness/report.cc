#include "harness/report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>
#include <string_view>

#include "common/error.h"
#include "common/float_limits.h"
#include "common/parse_number.h"
#include "harness/markdown.h"
#include "harness/roofline.h"
#include "harness/report_summary.h"
#include "harness/results_store.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

constexpr char kReportReferences[] =
    "J. Lee, M. Lee, S. Park, J. Yun, D. Lee, \"Variations of Augmented Lagrangian for Robotic "
    "Multi-Contact Simulation\" (res004, paper 004); V. Acary, M. Brémond, O. Huber, \"On "
    "solving contact problems with Coulomb friction: formulations and numerical comparisons\" "
    "(2018; natural map, performance profiles); V. Acary, M. Brémond, T. Koziara, F. Pérignon, "
    "\"FCLIB: a collection of discrete 3D Frictional Contact problems\" (2014; the fclib "
    "format and problems); E. D. Dolan, J. J. Moré, \"Benchmarking optimization software with "
    "performance profiles\" (2002).";

using RowPtrs = std::vector<const RunRecord*>;

// ---------------------------------------------------------------------------------------------
// Aggregation.

struct VariantKey {
  std::string solver, settings, budget, warm_start;
  auto operator<=>(const VariantKey&) const = default;
};

VariantKey KeyOf(const RunRecord& r) { return {r.solver, r.settings, r.budget, r.warm_start}; }

// One problem of one variant, repeats collapsed.
struct ProblemOutcome {
  const RunRecord* first = nullptr;   // lowest repeat: accuracy, status, iterations
  double time_s = kNaN;               // min total_time_s over repeats
  double time_to_tolerance_s = kNaN;  // min over repeats
  RowPtrs repeats;                    // every repeat (their traces: times are minima over them)
};

std::map<std::string, ProblemOutcome> ByProblem(const RowPtrs& runs) {
  std::map<std::string, ProblemOutcome> out;
  for (const RunRecord* r : runs) {
    ProblemOutcome& p = out[r->problem];
    if (p.first == nullptr || r->repeat < p.first->repeat) p.first = r;
    p.repeats.push_back(r);
    // A solver that did not run (not-applicable), could not set up (failed) or diverged has no
    // time: a diverged run's time says nothing about reaching a solution, and would rank it.
    const bool ran = RanToEnd(r->status);
    const double t =
        ran && std::isfinite(r->total_time_s) && r->total_time_s >= 0 ? r->total_time_s : kNaN;
    // std::fmin skips NaN: a repeat without a time does not erase the others.
    p.time_s = std::fmin(p.time_s, t);
    // A tolerance reached past the run's time budget (its last iteration overran it) was not
    // reached within it.
    const double budget = TimeBudgetS(*r);
    double reached = TimeToTolerance(*r, kTimeToTolerance);
    if (budget > 0 && reached > budget) reached = kNaN;
    p.time_to_tolerance_s = std::fmin(p.time_to_tolerance_s, reached);
  }
  return out;
}

// A missing or non-finite residual is worse than any number, so it ranks as +inf.
double MedianResidual(std::vector<double> v) {
  for (double& x : v) x = std::isfinite(x) ? x : kInf;
  return SampleMedian(std::move(v));
}

void CountSuccesses(const std::map<std::string, ProblemOutcome>& problems,
                    const ProfileTolerances& tolerances, SolverSummary& s) {
  for (std::size_t m = 0; m < kReportMetrics.size(); ++m) {
    for (std::size_t p = 0; p < tolerances.size(); ++p) {
      int solved = 0;
      for (const auto& [name, o] : problems) {
        solved += IsSuccess(*o.first, kReportMetrics[m], tolerances[p]);
      }
      s.success_rate[m][p] = problems.empty() ? 0.0 : static_cast<double>(solved) / problems.size();
    }
  }
}

// Distinct messages of the runs that are not counted (diverged, failed, not-applicable), each
// with its count, so that a reader sees why a solver is missing from the ranking.
std::string Reasons(const std::map<std::string, ProblemOutcome>& problems) {
  std::map<std::string, int> seen;
  for (const auto& [name, o] : problems) {
    if (RanToEnd(o.first->status)) continue;
    std::string m = o.first->message.empty() ? "(no message)" : o.first->message;
    if (m.size() > 160) m = m.substr(0, 157) + "...";
    ++seen[fmt::format("{}: {}", ToString(o.first->status), m)];
  }
  std::string out;
  for (const auto& [m, n] : seen) out += fmt::format("{}{} × {}", out.empty() ? "" : "; ", n, m);
  return out;
}

// best_time: per problem, the earliest time any solver reached res004 ≤ kTimeToTolerance.
SolverSummary SummarizeVariant(const std::map<std::string, ProblemOutcome>& problems,
                               const ProfileTolerances& tolerances,
                               const std::map<std::string, double>& best_time) {
  SolverSummary s;
  s.problems = static_cast<int>(problems.size());
  CountSuccesses(problems, tolerances, s);
  std::vector<double> times, iterations, res004, natmap_rel, to_tolerance, at_best;
  for (const auto& [name, o] : problems) {
    if (!std::isnan(o.time_s)) times.push_back(o.time_s);
    if (o.first->iterations >= 0) iterations.push_back(o.first->iterations);
    res004.push_back(o.first->final_metrics[Metric::kRes004]);
    natmap_rel.push_back(o.first->final_metrics[Metric::kNatmapRel]);
    if (!std::isnan(o.time_to_tolerance_s)) to_tolerance.push_back(o.time_to_tolerance_s);
    if (const auto b = best_time.find(name); b != best_time.end()) {
      const bool counted =
          o.first->status != Outcome::kNotApplicable && o.first->status != Outcome::kFailed;
      // The best time is a minimum over repeats: the residual at it is the best any repeat
      // had by then (repeat 0's alone may not have reached what a faster repeat did).
      double best = kInf;
      for (const RunRecord* r : o.repeats)
        best = std::fmin(best, Res004AtTime(*r, b->second));  // fmin skips NaN (no trace)
      at_best.push_back(counted ? best : kInf);
    }
    ++s.status_counts[static_cast<std::size_t>(o.first->status)];
  }
  s.shgeom_time_s = ShiftedGeometricMean(times, kTimeShiftS);
  s.median_iterations = SampleMedian(iterations);
  s.median_res004 = MedianResidual(res004);
  s.median_natmap_rel = MedianResidual(natmap_rel);
  s.reached_tolerance = static_cast<int>(to_tolerance.size());
  s.median_time_to_tolerance_s = SampleMedian(to_tolerance);
  s.median_res004_at_best_time = at_best.empty() ? kNaN : MedianResidual(at_best);
  s.reasons = Reasons(problems);
  return s;
}

// "k=v" items of a variant: settings, budget, and its warm start.
std::set<std::string> Items(const VariantKey& k) {
  std::set<std::string> items;
  for (const std::string* list : {&k.settings, &k.budget}) {
    std::size_t begin = 0;
    while (begin <= list->size()) {
      const std::size_t end = std::min(list->find(';', begin), list->size());
      if (end > begin) items.insert(list->substr(begin, end - begin));
      begin = end + 1;
    }
  }
  items.insert("warm_start=" + k.warm_start);
  return items;
}

// The solver name alone when a dataset has one variant of it; otherwise the name plus the items
// in which its variants differ (or a number when they differ only in item order).
std::string VariantLabel(const std::string& solver, std::size_t variants,
                         const std::vector<std::string>& differing, std::size_t index) {
  if (variants == 1) return solver;
  if (differing.empty()) return fmt::format("{} #{}", solver, index + 1);
  return fmt::format("{} ({})", solver, fmt::join(differing, ", "));
}

std::map<VariantKey, std::string> Labels(const std::map<VariantKey, RowPtrs>& variants) {
  std::map<std::string, std::vector<VariantKey>> by_solver;
  for (const auto& [key, runs] : variants) by_solver[key.solver].push_back(key);
  std::map<VariantKey, std::string> labels;
  for (const auto& [solver, keys] : by_solver) {
    std::set<std::string> common = Items(keys.front());
    for (const VariantKey& k : keys) {
      std::set<std::string> items = Items(k), kept;
      std::set_intersection(common.begin(), common.end(), items.begin(), items.end(),
                            std::inserter(kept, kept.begin()));
      common = std::move(kept);
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::vector<std::string> differing;
      for (const std::string& item : Items(keys[i])) {
        if (!common.count(item)) differing.push_back(item);
      }
      labels[keys[i]] = VariantLabel(solver, keys.size(), differing, i);
    }
  }
  return labels;
}

void RankSolvers(DatasetSummary& d) {
  double best_time = kInf, best_residual = kInf;
  for (const SolverSummary& s : d.solvers) best_time = std::fmin(best_time, s.shgeom_time_s);
  for (std::size_t i = 0; i < d.solvers.size(); ++i) {
    SolverSummary& s = d.solvers[i];
    if (std::isfinite(best_time) && best_time > 0) s.relative_time = s.shgeom_time_s / best_time;
    if (std::isfinite(s.median_res004) && s.median_res004 < best_residual) {
      best_residual = s.median_res004;
      d.most_accurate = static_cast<int>(i);
    }
    if (s.reached_tolerance > 0) d.by_time_to_tolerance.push_back(static_cast<int>(i));
  }
  // Most problems reached first, then the least median time: a solver that reaches the
  // tolerance rarely does not win on its few easy problems.
  std::stable_sort(d.by_time_to_tolerance.begin(), d.by_time_to_tolerance.end(), [&](int a, int b) {
    const SolverSummary &x = d.solvers[a], &y = d.solvers[b];
    return std::make_pair(-x.reached_tolerance, x.median_time_to_tolerance_s) <
           std::make_pair(-y.reached_tolerance, y.median_time_to_tolerance_s);
  });
  d.fastest = d.by_time_to_tolerance.empty() ? -1 : d.by_time_to_tolerance[0];
}

DatasetSummary SummarizeDataset(const std::string& name, const RowPtrs& rows) {
  std::map<VariantKey, RowPtrs> variants;
  for (const RunRecord* r : rows) variants[KeyOf(*r)].push_back(r);
  // Each variant's problems with repeats collapsed; per problem the earliest time any variant
  // reached the tolerance (already the minimum over that variant's repeats).
  std::map<VariantKey, std::map<std::string, ProblemOutcome>> outcomes;
  std::map<std::string, double> best_time;
  for (const auto& [key, runs] : variants) {
    outcomes[key] = ByProblem(runs);
    for (const auto& [problem, o] : outcomes[key]) {
      if (std::isnan(o.time_to_tolerance_s)) continue;
      const auto [it, fresh] = best_time.try_emplace(problem, o.time_to_tolerance_s);
      if (!fresh) it->second = std::fmin(it->second, o.time_to_tolerance_s);
    }
  }
  const std::map<VariantKey, std::string> labels = Labels(variants);
  DatasetSummary d;
  d.dataset = name;
  d.tolerances = TolerancesFor(rows, &d.run_tolerance);
  std::set<std::string> problems, budgets;
  std::map<std::string, int> repeats;  // job (variant and problem) → its rows
  for (const RunRecord* r : rows) {
    problems.insert(r->problem);
    budgets.insert(r->budget);
    d.traced |= !r->trace.empty();
    d.repeats = std::max(d.repeats, ++repeats[r->solver + "|" + r->settings + "|" + r->budget +
                                              "|" + r->warm_start + "|" + r->problem]);
  }
  d.problems = static_cast<int>(problems.size());
  d.budgets = fmt::format("{}", fmt::join(budgets, "; "));
  for (const auto& [key, runs] : variants) {
    d.solvers.push_back(SummarizeVariant(outcomes.at(key), d.tolerances, best_time));
    d.solvers.back().label = labels.at(key);
  }
  std::sort(d.solvers.begin(), d.solvers.end(),
            [](const SolverSummary& a, const SolverSummary& b) { return a.label < b.label; });
  RankSolvers(d);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Formatting: three significant digits, residuals in scientific notation.

std::string Sig(double x) {
  if (std::isnan(x)) return "n/a";
  if (std::isinf(x)) return "inf";
  return fmt::format("{:.3g}", x);
}

// A time relative to the best: "1" for the best alone, so a ratio that rounds to 1 at three
// digits keeps a fourth (1.002 is not the best).
std::string RelativeTimeText(double x) {
  std::string text = Sig(x);
  for (int digits = 4; text == "1" && x != 1.0 && digits <= 17; ++digits)
    text = fmt::format("{:.{}g}", x, digits);
  return text;
}

std::string Residual(double x) {
  if (std::isnan(x)) return "n/a";
  if (std::isinf(x)) return "inf";
  return fmt::format("{:.2e}", x);
}

std::string Percent(double fraction) { return fmt::format("{:.3g}%", 100.0 * fraction); }

// A tolerance as written by hand: 1e-3 rather than 0.001 or 1.00e-03.
std::string Tolerance(double x) {
  std::string mantissa = fmt::format("{:.2e}", x);
  const std::size_t e = mantissa.find('e');
  const int exponent = std::stoi(mantissa.substr(e + 1));
  mantissa.erase(e);
  while (mantissa.back() == '0') mantissa.pop_back();
  if (mantissa.back() == '.') mantissa.pop_back();
  return fmt::format("{}e{}", mantissa, exponent);
}

std::string Count(double x) { return std::isnan(x) ? "n/a" : fmt::format("{:g}", x); }

// Labels come from settings strings, which may contain the table separator.
std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string Attr(const std::map<std::string, std::string>& attrs, const std::string& key) {
  const auto it = attrs.find(key);
  return it == attrs.end() || it->second.empty() ? "unknown" : it->second;
}

std::string Header(const std::map<std::string, std::string>& attrs) {
  const std::string threads = attrs.count(kRunAttrThreads) ? Attr(attrs, kRunAttrThreads)
                                                           : Attr(attrs, kRunAttrHostThreads);
  std::string out = markdown::Heading(1, "ncpbench report");
  out += fmt::format("- Date: {}\n", Attr(attrs, kRunAttrDate));
  out += fmt::format("- CPU: {}\n", Attr(attrs, kRunAttrCpu));
  out += fmt::format(
      "- Threads: {}{}\n", threads,
      attrs.count(kRunAttrThreads) && attrs.count(kRunAttrHostThreads)
          // The CPUs the writing process could use (its affinity: one core per
          // rank where mpirun binds ranks), not the host's count.
          ? fmt::format(" (its process could use {} CPU{})", Attr(attrs, kRunAttrHostThreads),
                        Attr(attrs, kRunAttrHostThreads) == "1" ? "" : "s")
          : "");
  // Files from before the attribute: no line, rather than "unknown".
  if (attrs.count(kRunAttrOpenMpEnv))
    out += fmt::format("- OpenMP environment: {}\n", Attr(attrs, kRunAttrOpenMpEnv));
  out += fmt::format("- Git revision: {}\n", Attr(attrs, kRunAttrGitRevision));
  // The suite's version with what built it and the peers it compares against.
  std::string built;
  for (const auto& [key, label] :
       {std::pair{kRunAttrVersionCompiler, ""},
        std::pair{kRunAttrVersionSiconos, "Siconos Numerics "},
        std::pair{kRunAttrVersionMujoco, "MuJoCo "}, std::pair{kRunAttrVersionBullet, "Bullet "},
        std::pair{kRunAttrVersionDart, "DART "}}) {
    if (const auto it = attrs.find(key); it != attrs.end() && !it->second.empty())
      built += fmt::format("{}{}{}", built.empty() ? "" : ", ", label, it->second);
  }
  out += fmt::format("- Version: {}{}\n", Attr(attrs, kRunAttrVersion),
                     built.empty() ? "" : " (" + built + ")");
  const std::set<std::string> shown = {
      kRunAttrDate,           kRunAttrCpu,           kRunAttrHostThreads,   kRunAttrThreads,
      kRunAttrOpenMpEnv,      kRunAttrGitRevision,   kRunAttrVersion,       kRunAttrVersionCompiler,
      kRunAttrVersionSiconos, kRunAttrVersionMujoco, kRunAttrVersionBullet, kRunAttrVersionDart};
  // Per-dataset hashes on one line: they identify the inputs, and one line each would push the
  // summary off the first screen.
  const std::string kHash = "dataset_hash:", kPlugin = kRunAttrPluginPrefix;
  std::string hashes, plugins;
  for (const auto& [key, value] : attrs) {
    if (shown.count(key)) continue;
    if (key.rfind(kHash, 0) == 0) {
      hashes += fmt::format("{}{} {}", hashes.empty() ? "" : ", ", key.substr(kHash.size()), value);
      continue;
    }
    if (key.rfind(kPlugin, 0) == 0) {
      plugins += fmt::format("{}`{}` (hash {})", plugins.empty() ? "" : ", ",
                             key.substr(kPlugin.size()), value);
      continue;
    }
    out += fmt::format("- {}: {}\n", key, value);
  }
  if (!hashes.empty()) out += fmt::format("- Dataset hashes: {}\n", hashes);
  if (!plugins.empty()) out += fmt::format("- Solver plug-ins: {}\n", plugins);
  return out + "\n";
}

// Which profiles are fixed and which come from the run, in the words of the tables.
std::string ProfilesText(const std::vector<DatasetSummary>& datasets) {
  std::set<double> from_run;
  for (const DatasetSummary& d : datasets)
    if (d.tolerances[2] != kAccuracyProfiles[2].tolerance) from_run.insert(d.tolerances[2]);
  std::string high = fmt::format("high {} (fixed)", Tolerance(kAccuracyProfiles[2].tolerance));
  if (!from_run.empty()) {
    std::string list;
    for (double t : from_run) list += (list.empty() ? "" : ", ") + Tolerance(t);
    high = fmt::format(
        "high = the run's --tol ({}) where the runs stopped at a tolerance below "
        "{}, else {}",
        list, Tolerance(kAccuracyProfiles[1].tolerance), Tolerance(kAccuracyProfiles[2].tolerance));
  }
  return fmt::format("low {} and mid {} (fixed), {}", Tolerance(kAccuracyProfiles[0].tolerance),
                     Tolerance(kAccuracyProfiles[1].tolerance), high);
}

std::string HowToRead(const std::vector<DatasetSummary>& datasets) {
  const std::string text = fmt::format(
      "Success at a profile ({}): final metric ≤ the profile's tolerance, finite, and status "
      "neither diverged nor failed. **Time in the tables** (one definition): shifted geometric "
      "mean of total_time_s (setup + solve, minimum over repeats per problem, shift {:g} ms) over "
      "every run that ran to its end (not diverged, failed or not-applicable), successful or "
      "not — read it with the success rates. Relative time divides it by the best solver's on "
      "the dataset; that ratio transfers across machines, absolute times hold for the CPU above. "
      "**res004 at best time**: per problem, res004 of the solver's trace (the lowest over its "
      "repeats, "
      "whose minimum the times are) at the moment the "
      "fastest solver on that problem reached res004 ≤ {} (the same time budget for every "
      "solver; inf for a solver with no trace point by then), median over problems — the error "
      "at a fixed budget. The verdict lines under each "
      "table use the median time to res004 ≤ {} from the traces, as they say. Medians count a "
      "non-finite residual as inf. Status: converged / max-iterations / time-limit / diverged / "
      "failed / not-applicable; runs that diverged, failed or were not applicable are never "
      "ranked, and their messages are listed under the table. Metric definitions: last "
      "section.\n\n",
      ProfilesText(datasets), kTimeShiftS * 1e3, Tolerance(kTimeToTolerance),
      Tolerance(kTimeToTolerance));
  return markdown::Heading(2, "How to read the dataset tables") + text;
}

// The dataset table: two label columns, then numbers (right-aligned).
markdown::Table DatasetTable(const DatasetSummary& d) {
  std::vector<std::string> head = {"solver", "problems"};
  for (Metric m : kReportMetrics) {
    for (std::size_t p = 0; p < kAccuracyProfiles.size(); ++p) {
      head.push_back(fmt::format("{} ≤ {}", kMetricNames[static_cast<std::size_t>(m)],
                                 Tolerance(d.tolerances[p])));
    }
  }
  head.push_back(fmt::format("reached res004 ≤ {} (trace)", Tolerance(kTimeToTolerance)));
  for (const char* h :
       {"median time to it [ms]", "time shgeom [ms]", "time rel.", "median iters", "median res004",
        "res004 at best time", "median natmap_rel", "status conv/max-it/time/div/fail/n-a/stop"})
    head.emplace_back(h);
  const std::string align = "ll" + std::string(head.size() - 2, 'r');
  return markdown::Table(std::move(head), align);
}

// The label is escaped by the table.
// `traced`: whether the dataset's runs kept traces (without, "reached" says nothing: n/a).
std::vector<std::string> TableRow(const SolverSummary& s, bool traced) {
  std::vector<std::string> row = {s.label, std::to_string(s.problems)};
  for (const auto& rates : s.success_rate) {
    for (double rate : rates) row.push_back(Percent(rate));
  }
  row.insert(row.end(), {traced ? fmt::format("{}/{}", s.reached_tolerance, s.problems) : "n/a",
                         Sig(s.median_time_to_tolerance_s * 1e3), Sig(s.shgeom_time_s * 1e3),
                         RelativeTimeText(s.relative_time), Count(s.median_iterations),
                         Residual(s.median_res004), Residual(s.median_res004_at_best_time),
                         Residual(s.median_natmap_rel)});
  row.push_back(fmt::format("{}", fmt::join(s.status_counts, "/")));
  return row;
}

std::string Verdicts(const DatasetSummary& d) {
  std::string out = fmt::format("Sample: {} problem{} × {} repeat{}; budget {}.\n", d.problems,
                                d.problems == 1 ? "" : "s", d.repeats, d.repeats == 1 ? "" : "s",
                                d.budgets.empty() ? "not recorded" : d.budgets);
  const std::string small = SampleTooSmall(d.problems, static_cast<int>(d.solvers.size()));
  // Runs stopped at the run's tolerance all end just below it: their final residuals say which
  // solver overshot most, not which is most accurate.
  std::vector<std::string> at_tolerance;
  if (std::isfinite(d.run_tolerance)) {
    for (const SolverSummary& s : d.solvers)
      if (s.median_res004 <= d.run_tolerance) at_tolerance.push_back(Escape(s.label));
  }
  if (!small.empty()) {
    out += fmt::format("Most accurate: not assessed ({}).\n", small);
  } else if (at_tolerance.size() > 1) {
    out += fmt::format(
        "Most accurate: not ranked — {} solvers stopped at the run's tolerance {} (median final "
        "res004 below it: {}).\n",
        at_tolerance.size(), Tolerance(d.run_tolerance), fmt::join(at_tolerance, ", "));
  } else if (d.most_accurate >= 0) {
    const SolverSummary& s = d.solvers[d.most_accurate];
    // Equal medians are a tie, not a win by the label's order; so are medians both at round-off
    // (≤ 1e-12, compare's floor): 3e-16 against 1.5e-15 is rounding, not accuracy.
    constexpr double kRoundOff = 1e-12;
    const bool at_round_off = s.median_res004 <= kRoundOff;
    std::vector<std::string> tied;
    for (const SolverSummary& o : d.solvers)
      if (&o != &s &&
          (o.median_res004 == s.median_res004 || (at_round_off && o.median_res004 <= kRoundOff)))
        tied.push_back(Escape(o.label));
    const std::string median = at_round_off && !tied.empty()
                                   ? fmt::format("at round-off, ≤ {:g}", kRoundOff)
                                   : Residual(s.median_res004);
    out += tied.empty()
               ? fmt::format("Most accurate: **{}** (median final res004 {}).\n", Escape(s.label),
                             median)
               : fmt::format("Most accurate: a tie of **{}** and {} (median final res004 {}).\n",
                             Escape(s.label), fmt::join(tied, ", "), median);
  } else {
    out += "Most accurate: none (no solver has a finite median final res004).\n";
  }
  const std::string tolerance = "res004 ≤ " + Tolerance(kTimeToTolerance);
  const std::string rule =
      fmt::format("Most problems to {} (in the trace), then least median time to it", tolerance);
  if (!d.traced)
    return out + rule + ": not assessed (the runs kept no trace: run with --trace K).\n";
  if (std::string why = small.empty() ? StoppedShortOf(d.run_tolerance, kTimeToTolerance) : small;
      !why.empty())
    return out + rule + fmt::format(": not assessed ({}).\n", why);
  if (d.fastest < 0) return out + rule + ": none (no trace reached it).\n";
  // The winner, then how it compares with the runner-up and the best peer by the same rule.
  auto figures = [](const SolverSummary& s) {
    return fmt::format("{}/{}, median {} ms", s.reached_tolerance, s.problems,
                       Sig(s.median_time_to_tolerance_s * 1e3));
  };
  auto margin = [](const SolverSummary& w, const SolverSummary& o) {
    const int more = w.reached_tolerance - o.reached_tolerance;
    const double ratio = o.median_time_to_tolerance_s / w.median_time_to_tolerance_s;
    std::string m = more > 0 ? fmt::format("{} more problem{}", more, more > 1 ? "s" : "") : "";
    const std::string speed = ratio >= 1 ? fmt::format("{} × faster", Sig(ratio))
                                         : fmt::format("{} × slower", Sig(1 / ratio));
    return m.empty() ? speed : m + ", median " + speed;
  };
  const SolverSummary& w = d.solvers[d.fastest];
  const SolverSummary* r =
      d.by_time_to_tolerance.size() > 1 ? &d.solvers[d.by_time_to_tolerance[1]] : nullptr;
  if (r && r->reached_tolerance == w.reached_tolerance &&
      r->median_time_to_tolerance_s == w.median_time_to_tolerance_s) {
    out += fmt::format("{}: a tie of **{}** and {} ({} each)", rule, Escape(w.label),
                       Escape(r->label), figures(w));
  } else if (r) {
    out += fmt::format("{}: **{}** ({}); runner-up {} ({}): {} by {}", rule, Escape(w.label),
                       figures(w), Escape(r->label), figures(*r), Escape(w.label), margin(w, *r));
  } else {
    out += fmt::format("{}: **{}** ({})", rule, Escape(w.label), figures(w));
    out += "; no runner-up reached it";
  }
  if (!IsPeerSolver(w.label)) {
    for (int i : d.by_time_to_tolerance) {
      const SolverSummary& p = d.solvers[i];
      if (!IsPeerSolver(p.label)) continue;
      out += fmt::format("; best peer {} ({}): {} by {}", Escape(p.label), figures(p),
                         Escape(w.label), margin(w, p));
      break;
    }
  }
  return out + ".\n";
}

std::string DatasetSection(const DatasetSummary& d) {
  std::string out =
      markdown::Heading(2, "Dataset " + (d.dataset.empty() ? "(unnamed)" : d.dataset));
  markdown::Table table = DatasetTable(d);
  for (const SolverSummary& s : d.solvers) table.Row(TableRow(s, d.traced));
  out += table.str() + "\n" + Verdicts(d);
  std::string reasons;
  for (const SolverSummary& s : d.solvers)
    if (!s.reasons.empty())
      reasons += fmt::format("- {}: {}\n", Escape(s.label), Escape(s.reasons));
  if (!reasons.empty())
    out += "\nRuns not counted (diverged, failed, not applicable) and why:\n\n" + reasons;
  return out + "\n";
}

}  // namespace

double TimeBudgetS(const RunRecord& r) {
  const auto kv = ParseKeyValues(r.budget);
  const auto it = kv.find("time_ms");
  double ms = 0.0;
  return it != kv.end() && ParseDecimal(it->second, &ms) && ms > 0 && std::isfinite(ms) ? 1e-3 * ms
                                                                                        : 0.0;
}

double StopToleranceOf(const RunRecord& r, std::string* metric) {
  double tol = kNaN;
  try {
    const std::map<std::string, std::string> items = ParseKeyValues(r.budget);
    if (const auto it = items.find("tol"); it != items.end()) {
      double v = 0.0;
      if (ParseDecimal(it->second, &v) && std::isfinite(v) && v > 0) tol = v;
    }
    if (metric != nullptr) {
      const auto m = items.find("tol_metric");
      *metric = m != items.end() ? m->second : "res004";
    }
  } catch (const Error&) {
  }
  return tol;
}

double SampleMedian(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double ShiftedGeometricMean(const std::vector<double>& values, double shift) {
  if (values.empty()) return kNaN;
  double sum = 0.0;
  for (double v : values) sum += std::log(v + shift);
  return std::exp(sum / values.size()) - shift;
}

bool IsSuccess(const RunRecord& r, Metric m, double tolerance) {
  if (r.status == Outcome::kDiverged || r.status == Outcome::kFailed) return false;
  const double value = r.final_metrics[m];
  return std::isfinite(value) && value <= tolerance;
}

double TimeToTolerance(const RunRecord& r, double tolerance) {
  double earliest = kNaN;
  for (const TracePoint& p : r.trace) {
    const double value = p.metrics[Metric::kRes004];
    if (std::isfinite(value) && value <= tolerance) earliest = std::fmin(earliest, p.time_s);
  }
  return earliest;
}

double Res004AtTime(const RunRecord& r, double time_s) {
  if (r.trace.empty()) return kNaN;
  // The last point at or before the time; none (the solver's setup outlasted it, its first
  // point is stamped later): it had no iterate then, which counts as +inf, never as a residual
  // it reached only afterwards.
  const TracePoint* at = nullptr;
  for (const TracePoint& p : r.trace)
    if (p.time_s <= time_s && (!at || p.time_s >= at->time_s)) at = &p;
  return at ? at->metrics[Metric::kRes004] : kInf;
}

ProfileTolerances TolerancesFor(const std::vector<const RunRecord*>& rows, double* run_tolerance) {
  ProfileTolerances t{};
  for (std::size_t p = 0; p < t.size(); ++p) t[p] = kAccuracyProfiles[p].tolerance;
  double shared = kNaN;
  bool first = true;
  for (const RunRecord* r : rows) {
    // The budget's "tol" item; 0, absent or unreadable means no tolerance.
    const double tol = StopToleranceOf(*r);
    if (first) {
      shared = tol;
      first = false;
    } else if (!(tol == shared)) {  // also when either is NaN
      shared = kNaN;
      break;
    }
  }
  if (run_tolerance != nullptr) *run_tolerance = shared;
  if (shared < kAccuracyProfiles[1].tolerance) t[2] = shared;
  return t;
}

std::vector<DatasetSummary> SummarizeResults(const std::vector<RunRecord>& rows) {
  std::map<std::string, RowPtrs> by_dataset;
  for (const RunRecord& r : rows) by_dataset[r.dataset].push_back(&r);
  std::vector<DatasetSummary> out;
  for (const auto& [name, dataset_rows] : by_dataset) {
    out.push_back(SummarizeDataset(name, dataset_rows));
  }
  return out;
}

namespace {

// Where the rows were measured (a campaign may span MPI ranks and machines). Times taken on
// different CPU models are not comparable, and every ratio of this report divides them.
std::string HostsLines(const std::vector<RunRecord>& rows) {
  std::map<std::string, std::map<std::string, int>> hosts;  // host → CPU model → rows
  std::set<std::string> cpus;
  for (const RunRecord& r : rows) {
    if (r.host.empty()) continue;  // files written before the column
    ++hosts[r.host][r.cpu];
    cpus.insert(r.cpu);
  }
  if (hosts.empty()) return "";
  std::string list;
  for (const auto& [host, models] : hosts)
    for (const auto& [cpu, n] : models)
      list += fmt::format("{}{} ({}, {} runs)", list.empty() ? "" : ", ", host,
                          cpu.empty() ? "unknown CPU" : cpu, n);
  std::string out = fmt::format("- Hosts: {}\n", list);
  if (cpus.size() > 1)
    out += fmt::format(
        "- **Warning: the runs come from {} different CPU models; time ratios "
        "between solvers mix machines.** Compare times within one host, or rerun "
        "on one CPU model.\n",
        cpus.size());
  return out;
}

// The report's metrics with their units and sources, and the papers they come from by title.
std::string MetricDefinitions() {
  std::string out = markdown::Heading(2, "Metrics and sources");
  for (Metric m : {Metric::kRes004, Metric::kNatmapRel, Metric::kNatmapAbs}) {
    const auto i = static_cast<std::size_t>(m);
    out += fmt::format("- **{}**: {}.\n", kMetricNames[i], kMetricMeanings[i]);
  }
  out += fmt::format(
      "- **time**: wall-clock seconds of the solver's Setup() and Iterate() calls (evaluation of "
      "traces and tolerances excluded); the tables show it in ms.\n- **time to tolerance**: the "
      "earliest trace point with res004 ≤ the tolerance (trace resolution: every --trace "
      "iterations).\n\nPapers: {}\n",
      kReportReferences);
  return out;
}

}  // namespace

std::string MarkdownReport(const std::vector<RunRecord>& rows,
                           const std::map<std::string, std::string>& run_attrs) {
  std::string out = Header(run_attrs);
  // The header's thread count is what the run allowed; what each solver used can be less (a
  // sequential solver, a problem below a solver's parallel threshold).
  std::map<int, int> used;
  for (const RunRecord& r : rows) ++used[r.threads_used];
  if (!used.empty()) {
    std::string list;
    for (const auto& [threads, runs] : used)
      list += fmt::format("{}{} ({} runs)", list.empty() ? "" : ", ",
                          threads > 0 ? std::to_string(threads) : "unknown", runs);
    out.insert(out.size() - 1, fmt::format("- Threads used by the runs: {}\n", list));
  }
  out.insert(out.size() - 1, HostsLines(rows));
  const std::vector<DatasetSummary> datasets = SummarizeResults(rows);
  if (!datasets.empty()) out += SummarySection(datasets);
  out += HowToRead(datasets);
  if (datasets.empty()) out += "No results.\n";
  for (const DatasetSummary& d : datasets) out += DatasetSection(d);
  out += RooflineMarkdown(ComputeRoofline(rows, run_attrs));
  return out + MetricDefinitions();
}

}  // namespace ncp
