#include "harness/profile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "harness/report.h"

namespace ncp {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool IsPeer(const std::string& solver) { return solver.rfind("siconos:", 0) == 0; }

// A variant is a solver name plus its settings: profiles compare solver names, so a solver run
// with several settings appears once per settings string.
std::string Label(const RunRecord& r, const std::set<std::string>& multi) {
  return multi.count(r.solver) ? r.solver + " [" + r.settings + "]" : r.solver;
}

struct Cell {
  const RunRecord* first = nullptr;
  double time_to_tol = kNaN, total = kNaN;
  bool not_applicable = false;
};

double Median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string Sig(double x) { return std::isfinite(x) ? fmt::format("{:.3g}", x) : "n/a"; }

}  // namespace

double SolverProfile::Fraction(double tau) const {
  if (ratios.empty()) return 0.0;
  const auto n = std::upper_bound(ratios.begin(), ratios.end(), tau) - ratios.begin();
  return static_cast<double>(n) / static_cast<double>(ratios.size());
}

ProfileResult ComputeProfiles(const std::vector<RunRecord>& rows, double tol, double time_budget_s) {
  ProfileResult out;
  out.tol = tol;
  std::map<std::string, std::set<std::string>> settings_of;
  for (const RunRecord& r : rows) settings_of[r.solver].insert(r.settings);
  std::set<std::string> multi;
  for (const auto& [s, set] : settings_of)
    if (set.size() > 1) multi.insert(s);

  // (dataset, problem) → solver label → cell
  std::map<std::pair<std::string, std::string>, std::map<std::string, Cell>> grid;
  std::set<std::string> labels;
  for (const RunRecord& r : rows) {
    const std::string label = Label(r, multi);
    labels.insert(label);
    Cell& c = grid[{r.dataset, r.problem}][label];
    if (!c.first || r.repeat < c.first->repeat) c.first = &r;
    c.time_to_tol = std::fmin(c.time_to_tol, TimeToTolerance(r, tol));
    if (r.status != "not-applicable" && r.status != "failed" && r.total_time_s >= 0)
      c.total = std::fmin(c.total, r.total_time_s);
    c.not_applicable = r.status == "not-applicable";
  }
  std::map<std::string, SolverProfile> prof;
  std::map<std::string, std::vector<double>> shifted_times;
  for (const std::string& l : labels) prof[l].solver = l, prof[l].peer = IsPeer(l.substr(0, l.find(' ')));
  // dataset → solver → times to tol
  std::map<std::string, std::map<std::string, std::vector<double>>> reached;
  std::map<std::string, int> problems_in;
  for (const auto& [key, cells] : grid) {
    double best = kInf, slowest = 0.0;
    for (const auto& [l, c] : cells) {
      best = std::fmin(best, c.time_to_tol);
      if (std::isfinite(c.time_to_tol)) slowest = std::max(slowest, c.time_to_tol);
    }
    ++problems_in[key.first];
    for (const std::string& l : labels) {
      const auto it = cells.find(l);
      const Cell c = it == cells.end() ? Cell{} : it->second;
      ProfileEntry e{key.first, key.second, l, c.time_to_tol, kNaN};
      if (std::isfinite(best)) e.ratio = std::isfinite(c.time_to_tol) ? c.time_to_tol / best : kInf;
      out.entries.push_back(e);
      SolverProfile& s = prof[l];
      ++s.problems;
      s.not_applicable += c.not_applicable;
      s.ratios.push_back(std::isnan(e.ratio) ? kInf : e.ratio);
      if (std::isfinite(c.time_to_tol)) {
        ++s.solved;
        shifted_times[l].push_back(c.time_to_tol);
        reached[key.first][l].push_back(c.time_to_tol);
      } else {
        const double spent = std::isfinite(c.total) ? c.total : 0.0;
        shifted_times[l].push_back(std::max({spent, time_budget_s, slowest}));
      }
    }
  }
  for (auto& [l, s] : prof) {
    std::sort(s.ratios.begin(), s.ratios.end());
    s.shgeom_time_s = ShiftedGeometricMean(shifted_times[l], kTimeShiftS);
    out.solvers.push_back(s);
  }
  // Per dataset: the fastest is, among the solvers that reached tol on the most problems, the
  // one with the lowest median time (as in report.cc's ranking).
  for (const auto& [dataset, by_solver] : reached) {
    DatasetVerdict v;
    v.dataset = dataset;
    v.problems = problems_in[dataset];
    auto better = [](int n, double med, int bn, double bmed) { return n > bn || (n == bn && med < bmed); };
    int best_n[3] = {0, 0, 0};
    double best_med[3] = {kInf, kInf, kInf};
    std::string* best_name[3] = {&v.fastest, &v.best_ours, &v.best_peer};
    for (const auto& [l, times] : by_solver) {
      const int n = static_cast<int>(times.size());
      const double med = Median(times);
      for (int k = 0; k < 3; ++k) {
        if (k == 1 && IsPeer(l)) continue;
        if (k == 2 && !IsPeer(l)) continue;
        if (better(n, med, best_n[k], best_med[k])) best_n[k] = n, best_med[k] = med, *best_name[k] = l;
      }
    }
    v.fastest_median_s = best_med[0];
    v.fastest_reached = best_n[0];
    v.peer_beats_ours = !v.best_peer.empty() && v.fastest == v.best_peer;
    out.datasets.push_back(v);
  }
  for (const auto& [dataset, n] : problems_in)
    if (!reached.count(dataset)) out.datasets.push_back({dataset, "", kNaN, 0, n, "", "", false});
  std::sort(out.datasets.begin(), out.datasets.end(),
            [](const DatasetVerdict& a, const DatasetVerdict& b) { return a.dataset < b.dataset; });
  return out;
}

std::vector<RunRecord> RunsOnCommonProblems(const std::vector<RunRecord>& rows) {
  std::set<std::pair<std::string, std::string>> excluded;
  for (const RunRecord& r : rows)
    if (r.status == "not-applicable") excluded.insert({r.dataset, r.problem});
  std::vector<RunRecord> out;
  for (const RunRecord& r : rows)
    if (!excluded.count({r.dataset, r.problem})) out.push_back(r);
  return out;
}

namespace {

std::string SolverTable(const ProfileResult& r) {
  const double taus[] = {1, 2, 4, 10, 100};
  std::string out = "| solver | solved | ρ(1) | ρ(2) | ρ(4) | ρ(10) | ρ(100) | shifted geomean time (ms) |\n";
  out += "|---|---|---|---|---|---|---|---|\n";
  for (const SolverProfile& s : r.solvers) {
    out += fmt::format("| {}{} | {}/{}{} |", s.solver, s.peer ? " (peer)" : "", s.solved, s.problems,
                       s.not_applicable ? fmt::format(" ({} n/a)", s.not_applicable) : "");
    for (double t : taus) out += fmt::format(" {:.2f} |", s.Fraction(t));
    out += fmt::format(" {} |\n", Sig(s.shgeom_time_s * 1e3));
  }
  return out;
}

}  // namespace

std::string ProfileMarkdown(const ProfileResult& r, const ProfileResult* common) {
  std::string out = fmt::format("# Performance profiles (time to res004 ≤ {:g})\n\n", r.tol);
  int problems = r.solvers.empty() ? 0 : r.solvers.front().problems;
  out += fmt::format(
      "{} problems. ρ(τ): share of problems a solver solves within τ times the fastest solver's "
      "time on that problem (Dolan–Moré); ρ(1) is the share where it is the fastest. Shifted "
      "geometric mean of the time to tolerance (shift {:g} ms); an unsolved problem (n/a: not "
      "applicable) counts at the longest of the time spent on it, the time budget and the slowest "
      "solver's time to tolerance on it. Siconos Numerics solvers are marked (peer).\n\n",
      problems, kTimeShiftS * 1e3);
  out += SolverTable(r);
  out += "\n## Fastest solver per dataset\n\n";
  for (const DatasetVerdict& d : r.datasets) {
    if (d.fastest.empty()) {
      out += fmt::format("- **{}**: no solver reached res004 ≤ {:g} ({} problems).\n", d.dataset,
                         r.tol, d.problems);
      continue;
    }
    out += fmt::format("- **{}**: fastest to res004 ≤ {:g} is **{}** (median {} ms, reached on {}/{} problems).",
                       d.dataset, r.tol, d.fastest, Sig(d.fastest_median_s * 1e3), d.fastest_reached,
                       d.problems);
    if (d.peer_beats_ours)
      out += fmt::format(" The Siconos solver {} beats all of ours here{}.", d.fastest,
                         d.best_ours.empty() ? " (none of ours reached the tolerance)"
                                             : fmt::format(" (our fastest: {})", d.best_ours));
    out += "\n";
  }
  if (common) {
    const int n = common->solvers.empty() ? 0 : common->solvers.front().problems;
    out += fmt::format("\n## Only the {} problems every solver can take\n\n", n);
    out += n > 0 ? SolverTable(*common) : "None: some solver is not applicable to every problem.\n";
  }
  return out;
}

std::string ProfileCsv(const ProfileResult& r) {
  std::string out = "dataset,problem,solver,peer,time_to_tol_s,ratio\n";
  for (const ProfileEntry& e : r.entries)
    out += fmt::format("{},{},{},{},{},{}\n", e.dataset, e.problem, e.solver, IsPeer(e.solver) ? 1 : 0,
                       std::isfinite(e.time_s) ? fmt::format("{:.9g}", e.time_s) : "nan",
                       std::isnan(e.ratio) ? "nan" : std::isinf(e.ratio) ? "inf" : fmt::format("{:.9g}", e.ratio));
  return out;
}

}  // namespace ncp
