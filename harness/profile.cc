#include "harness/profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

#include "common/float_limits.h"
#include "harness/markdown.h"
#include "harness/verdict_guard.h"
#include "harness/report.h"

namespace ncp {
namespace {

// Beyond this many problems the per-problem table of ours vs Siconos lists only the problems
// where Siconos' best wins; the CSV has every problem.
constexpr std::size_t kMaxVersusRows = 100;

bool IsPeer(const std::string& solver) { return solver.rfind("siconos:", 0) == 0; }

const char* MetricName(Metric m) { return kMetricNames[static_cast<std::size_t>(m)]; }

// The times a mean is taken over: a problem whose time is not known (NaN: nothing was spent on
// it, no budget, no success) is left out rather than making every mean n/a; all unknown: none.
std::vector<double> KnownTimes(const std::vector<double>& times) {
  std::vector<double> known;
  for (double t : times)
    if (!std::isnan(t)) known.push_back(t);
  return known;
}

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

// Three significant digits, "n/a" for a non-finite value (a time never reached).
std::string FiniteSig(double x) { return std::isfinite(x) ? fmt::format("{:.3g}", x) : "n/a"; }

// ---------------------------------------------------------------------------------------------
// Descriptor bins (the 2018 paper explains failures by rank deficiency, mass ratio and size).

struct Bin {
  std::string label;
  double order;
};

// Decade k with 10^k ≤ x < 10^(k+1), robust to log10 rounding at exact powers.
int Decade(double x) {
  int k = static_cast<int>(std::floor(std::log10(x)));
  if (std::pow(10.0, k + 1) <= x) ++k;
  if (std::pow(10.0, k) > x) --k;
  return k;
}

Bin RankBin(double ratio) {
  if (std::isnan(ratio)) return {"not computed", 2};
  return ratio < 1.0 ? Bin{"< 1 (rank-deficient W)", 0} : Bin{"= 1 (full rank)", 1};
}

Bin MassBin(double ratio) {
  if (!(ratio > 0.0)) return {"n/a (local form)", 1e9};
  const int k = Decade(ratio);
  return {fmt::format("[1e{}, 1e{})", k, k + 1), static_cast<double>(k)};
}

Bin ContactsBin(int contacts) {
  if (contacts <= 0) return {"0", -1};
  const int k = Decade(contacts);
  return {fmt::format("[{:g}, {:g})", std::pow(10.0, k), std::pow(10.0, k + 1)),
          static_cast<double>(k)};
}

constexpr const char* kDescriptorNames[] = {"rank ratio", "mass ratio", "contacts"};

// Virtual best of one group of labels on one problem: its time and the time it spent failing.
struct GroupBest {
  double time = kNaN;  // fastest time to tolerance in the group
  double spent = 0.0;  // longest time a member spent on the problem
  std::string who;     // the fastest member
};

}  // namespace

double SolverProfile::Fraction(double tau) const {
  if (ratios.empty()) return 0.0;
  const auto n = std::upper_bound(ratios.begin(), ratios.end(), tau) - ratios.begin();
  return static_cast<double>(n) / static_cast<double>(ratios.size());
}

double TimeToMetric(const RunRecord& r, Metric m, double tolerance) {
  double earliest = kNaN;
  for (const TracePoint& p : r.trace) {
    const double value = p.metrics[m];
    if (std::isfinite(value) && value <= tolerance) earliest = std::fmin(earliest, p.time_s);
  }
  return earliest;
}

ProfileResult ComputeProfiles(const std::vector<RunRecord>& rows, double tol, double time_budget_s,
                              Metric metric) {
  ProfileResult out;
  out.metric = metric;
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
    double t = TimeToMetric(r, metric, tol);
    if (time_budget_s > 0 && t > time_budget_s) t = kNaN;  // reached only past the budget
    c.time_to_tol = std::fmin(c.time_to_tol, t);
    if (r.status != Outcome::kNotApplicable && r.status != Outcome::kFailed && r.total_time_s >= 0)
      c.total = std::fmin(c.total, r.total_time_s);
    c.not_applicable = r.status == Outcome::kNotApplicable;
  }
  std::map<std::string, SolverProfile> prof;
  std::map<std::string, std::vector<double>> shifted_times;
  for (const std::string& l : labels) {
    prof[l].solver = l;
    prof[l].peer = IsPeer(l.substr(0, l.find(' ')));
    (prof[l].peer ? out.has_peers : out.has_ours) = true;
  }
  // The virtual best solvers: 0 of all, 1 of ours, 2 of Siconos' (the last two when both ran).
  const int groups = out.has_ours && out.has_peers ? 3 : 1;
  std::vector<SolverProfile> vb(groups);
  std::vector<std::vector<double>> vb_shifted(groups);
  const char* vb_names[] = {kVirtualBest, kVirtualBestOurs, kVirtualBestPeer};
  for (int g = 0; g < groups; ++g) vb[g].solver = vb_names[g], vb[g].virtual_best = true;
  if (groups == 3) vb[2].peer = true;
  std::map<std::tuple<int, double, std::string>, DescriptorBin> bins;
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
    GroupBest group_best[3];
    bool group_takes[3] = {false, false, false};  // a solver of the group can take the problem
    for (const std::string& l : labels) {
      const auto it = cells.find(l);
      const Cell c = it == cells.end() ? Cell{} : it->second;
      const double spent = std::isfinite(c.total) ? c.total : 0.0;
      SolverProfile& s = prof[l];
      // A problem the solver cannot take is not a failure: it leaves the solver's counts,
      // ratios and means (shown apart as "n/a"), and its group's virtual best.
      if (c.not_applicable) {
        ++s.not_applicable;
        continue;
      }
      for (int g = 0; g < groups; ++g)
        group_takes[g] |= g == 0 || (g == 1 && !s.peer) || (g == 2 && s.peer);
      ProfileEntry e{key.first, key.second, l, c.time_to_tol, kNaN};
      if (std::isfinite(best)) e.ratio = std::isfinite(c.time_to_tol) ? c.time_to_tol / best : kInf;
      // An unsolved problem counts at what was spent on it, the budget or the slowest success;
      // where none of them is known (every run failed at once, no budget recorded) there is no
      // time to count: NaN, and the solver's mean is n/a rather than about 0.
      const double penalty = std::max({spent, time_budget_s, slowest});
      e.time_for_mean_s = std::isfinite(c.time_to_tol) ? c.time_to_tol
                          : penalty > 0                ? penalty
                                                       : kNaN;
      out.entries.push_back(e);
      ++s.problems;
      s.ratios.push_back(std::isnan(e.ratio) ? kInf : e.ratio);
      // The CSV carries the same value, so plots/profiles.py draws exactly these means.
      shifted_times[l].push_back(e.time_for_mean_s);
      if (std::isfinite(c.time_to_tol)) {
        ++s.solved;
        reached[key.first][l].push_back(c.time_to_tol);
      }
      for (int g = 0; g < groups; ++g) {
        if (g == 1 && s.peer) continue;
        if (g == 2 && !s.peer) continue;
        GroupBest& gb = group_best[g];
        gb.spent = std::max(gb.spent, spent);
        if (c.time_to_tol < gb.time || (std::isfinite(c.time_to_tol) && std::isnan(gb.time)))
          gb.time = c.time_to_tol, gb.who = l;
      }
    }
    for (int g = 0; g < groups; ++g) {
      const GroupBest& gb = group_best[g];
      if (!group_takes[g]) {
        ++vb[g].not_applicable;
        continue;
      }
      ++vb[g].problems;
      const bool ok = std::isfinite(gb.time);
      vb[g].solved += ok;
      vb[g].ratios.push_back(ok ? gb.time / best : kInf);
      const double penalty = std::max({gb.spent, time_budget_s, slowest});
      vb_shifted[g].push_back(ok ? gb.time : penalty > 0 ? penalty : kNaN);
    }
    if (groups == 3 && !(group_takes[1] && group_takes[2])) {
      // Ours against Siconos only where both sides can take the problem.
      VersusSummary& vs = out.versus_summary;
      vs.peer_not_applicable += !group_takes[2];
      vs.ours_not_applicable += !group_takes[1];
    } else if (groups == 3) {
      const GroupBest &ours = group_best[1], &peer = group_best[2];
      ProblemVersus v{key.first, key.second, ours.who, peer.who, ours.time, peer.time, kNaN};
      VersusSummary& vs = out.versus_summary;
      ++vs.problems;
      const bool o = std::isfinite(ours.time), p = std::isfinite(peer.time);
      if (o && p) {
        v.ratio = ours.time / peer.time;
        ++vs.both;
        if (ours.time < peer.time)
          ++vs.ours_faster;
        else if (peer.time < ours.time)
          ++vs.peer_faster;
        else
          ++vs.ties;
      } else if (p) {
        ++vs.peer_only;
      } else if (o) {
        ++vs.ours_only;
      } else {
        ++vs.neither;
      }
      out.versus.push_back(v);
    }
    // Success by descriptor bin: the descriptors are the problem's, the same in every row.
    const RunRecord& any = *cells.begin()->second.first;
    const Bin b[3] = {
        RankBin(any.descriptors.rank_ratio), MassBin(any.descriptors.mass_ratio),
        ContactsBin(any.num_contacts >= 0 ? any.num_contacts : any.descriptors.contacts)};
    for (int d = 0; d < 3; ++d) {
      DescriptorBin& db = bins[{d, b[d].order, b[d].label}];
      db.descriptor = kDescriptorNames[d];
      db.bin = b[d].label;
      db.order = b[d].order;
      ++db.problems;
      db.solved[kVirtualBest] += std::isfinite(best);
      for (const std::string& l : labels) {
        const auto it = cells.find(l);
        db.solved[l] += it != cells.end() && std::isfinite(it->second.time_to_tol);
      }
    }
  }
  for (auto& [l, s] : prof) {
    std::sort(s.ratios.begin(), s.ratios.end());
    s.shgeom_time_s = ShiftedGeometricMean(KnownTimes(shifted_times[l]), kTimeShiftS);
    out.solvers.push_back(s);
  }
  for (int g = 0; g < groups; ++g) {
    std::sort(vb[g].ratios.begin(), vb[g].ratios.end());
    vb[g].shgeom_time_s = ShiftedGeometricMean(KnownTimes(vb_shifted[g]), kTimeShiftS);
  }
  if (!grid.empty()) out.virtual_best = vb;
  {
    VersusSummary& vs = out.versus_summary;
    double log_sum = 0.0;
    for (const ProblemVersus& v : out.versus)
      if (std::isfinite(v.ratio)) log_sum += std::log(v.ratio);
    vs.geomean_ratio = vs.both > 0 ? std::exp(log_sum / vs.both) : kNaN;
  }
  for (auto& [k, b] : bins) out.bins.push_back(std::move(b));
  // Per dataset: the fastest is, among the solvers that reached tol on the most problems, the
  // one with the lowest median time (as in report.cc's ranking).
  for (const auto& [dataset, by_solver] : reached) {
    DatasetVerdict v;
    v.dataset = dataset;
    v.problems = problems_in[dataset];
    auto better = [](int n, double med, int bn, double bmed) {
      return n > bn || (n == bn && med < bmed);
    };
    int best_n[3] = {0, 0, 0};
    double best_med[3] = {kInf, kInf, kInf};
    std::string* best_name[3] = {&v.fastest, &v.best_ours, &v.best_peer};
    for (const auto& [l, times] : by_solver) {
      const int n = static_cast<int>(times.size());
      const double med = SampleMedian(times);
      for (int k = 0; k < 3; ++k) {
        if (k == 1 && IsPeer(l)) continue;
        if (k == 2 && !IsPeer(l)) continue;
        if (better(n, med, best_n[k], best_med[k]))
          best_n[k] = n, best_med[k] = med, *best_name[k] = l;
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
    if (r.status == Outcome::kNotApplicable) excluded.insert({r.dataset, r.problem});
  std::vector<RunRecord> out;
  for (const RunRecord& r : rows)
    if (!excluded.count({r.dataset, r.problem})) out.push_back(r);
  return out;
}

namespace {

std::vector<std::string> TableRow(const SolverProfile& s) {
  const double taus[] = {1, 2, 4, 10, 100};
  std::vector<std::string> row = {
      fmt::format("{}{}", s.virtual_best ? "*" + s.solver + "*" : s.solver,
                  s.peer && !s.virtual_best ? " (peer)" : ""),
      fmt::format("{}/{}{}", s.solved, s.problems,
                  s.not_applicable ? fmt::format(" ({} n/a)", s.not_applicable) : "")};
  for (double t : taus) row.push_back(fmt::format("{:.2f}", s.Fraction(t)));
  row.push_back(FiniteSig(s.shgeom_time_s * 1e3));
  return row;
}

std::string SolverTable(const ProfileResult& r) {
  markdown::Table table(
      {"solver", "solved", "ρ(1)", "ρ(2)", "ρ(4)", "ρ(10)", "ρ(100)", "shifted geomean time (ms)"},
      "llllllll");
  for (const SolverProfile& s : r.solvers) table.Row(TableRow(s));
  for (const SolverProfile& s : r.virtual_best) table.Row(TableRow(s));
  return table.str();
}

std::string FiniteMs(double s) { return std::isfinite(s) ? FiniteSig(s * 1e3) : "—"; }

// `level`: the heading level of the section.
std::string VersusSection(const ProfileResult& r, int level) {
  std::string out = "\n" + markdown::Heading(level, "Our best vs Siconos' best, per problem");
  if (!r.has_ours || !r.has_peers)
    return out + (r.has_peers ? "None of our solvers ran.\n" : "No Siconos solver ran.\n");
  const VersusSummary& v = r.versus_summary;
  out += fmt::format(
      "Over the {} problems both can take{}: Siconos' best solves **{}** that none of ours "
      "solves; ours solve {} that no Siconos solver does; both solve {}, neither {}. Where both "
      "solve, ours is faster on {}, "
      "Siconos on {}{}; geometric mean of the time ratio ours / Siconos: {}.\n\n",
      v.problems,
      v.peer_not_applicable + v.ours_not_applicable
          ? fmt::format(" (left out: {} that no Siconos solver can take, {} that none of ours "
                        "can)",
                        v.peer_not_applicable, v.ours_not_applicable)
          : "",
      v.peer_only, v.ours_only, v.both, v.neither, v.ours_faster, v.peer_faster,
      v.ties ? fmt::format(" (tied on {})", v.ties) : "", FiniteSig(v.geomean_ratio));
  const bool all = r.versus.size() <= kMaxVersusRows;
  if (!all)
    out += fmt::format(
        "Only the problems where Siconos' best wins are listed (at most {}); the "
        "CSV has every problem.\n\n",
        kMaxVersusRows);
  markdown::Table table({"dataset", "problem", "our fastest", "time (ms)", "Siconos' fastest",
                         "time (ms)", "ours / Siconos"},
                        "lllllll");
  std::size_t listed = 0;
  for (const ProblemVersus& p : r.versus) {
    const bool peer_wins = std::isfinite(p.peer_s) && !(p.ours_s <= p.peer_s);
    if (!all && (!peer_wins || listed >= kMaxVersusRows)) continue;
    ++listed;
    table.Row({p.dataset, p.problem, p.best_ours.empty() ? "none" : p.best_ours, FiniteMs(p.ours_s),
               p.best_peer.empty() ? "none" : p.best_peer, FiniteMs(p.peer_s),
               std::isfinite(p.ratio) ? FiniteSig(p.ratio) : "—"});
  }
  return out + table.str();
}

std::string BinSection(const ProfileResult& r, int level) {
  if (r.bins.empty()) return "";
  const std::string out =
      "\n" + markdown::Heading(level, "Success by problem descriptor") +
      "Share of the problems in each bin that a solver solves (rank ratio: numerical rank of W / "
      "rows, not computed above the size limit of problems/model/descriptors.h; mass ratio in "
      "decades; contacts in decades).\n\n";
  std::vector<std::string> head = {"descriptor", "bin", "problems", kVirtualBest};
  for (const SolverProfile& s : r.solvers) head.push_back(s.solver);
  const std::string align(head.size(), 'l');
  markdown::Table table(std::move(head), align);
  auto pct = [](int k, int n) { return fmt::format("{:.0f}%", 100.0 * k / std::max(n, 1)); };
  for (const DescriptorBin& b : r.bins) {
    auto solved = [&](const std::string& l) {
      const auto it = b.solved.find(l);
      return it == b.solved.end() ? 0 : it->second;
    };
    std::vector<std::string> row = {b.descriptor, b.bin, std::to_string(b.problems),
                                    pct(solved(kVirtualBest), b.problems)};
    for (const SolverProfile& s : r.solvers) row.push_back(pct(solved(s.solver), b.problems));
    table.Row(std::move(row));
  }
  return out + table.str();
}

// Everything below the title of one tolerance; `level` is the heading level of its subsections.
std::string ProfileBody(const ProfileResult& r, const ProfileResult* common, int level) {
  const std::string m = MetricName(r.metric);
  const int problems = r.solvers.empty() ? 0 : r.solvers.front().problems;
  std::string out = fmt::format(
      "{} problems. ρ(τ): share of problems a solver solves within τ times the fastest solver's "
      "time on that problem (Dolan–Moré); ρ(1) is the share where it is the fastest. Shifted "
      "geometric mean of the time to tolerance (shift {:g} ms); an unsolved problem (n/a: not "
      "applicable) counts at the longest of the time spent on it, the time budget and the slowest "
      "solver's time to tolerance on it. Siconos Numerics solvers are marked (peer). The *virtual "
      "best* solver takes, per problem, the fastest solver's time (of all, of ours, of "
      "Siconos').\n\n",
      problems, kTimeShiftS * 1e3);
  out += SolverTable(r);
  out += "\n" + markdown::Heading(level, "Fastest solver per dataset");
  for (const DatasetVerdict& d : r.datasets) {
    if (d.fastest.empty()) {
      out += fmt::format("- **{}**: no solver reached {} ≤ {:g} ({} problems).\n", d.dataset, m,
                         r.tol, d.problems);
      continue;
    }
    // Too small a sample or one solver: the figures, but no verdict.
    if (const std::string why = SampleTooSmall(d.problems, static_cast<int>(r.solvers.size()));
        !why.empty()) {
      out += fmt::format(
          "- **{}**: fastest to {} ≤ {:g}: not assessed ({}); {} reached it on {}/{} problems "
          "(median {} ms).\n",
          d.dataset, m, r.tol, why, d.fastest, d.fastest_reached, d.problems,
          FiniteSig(d.fastest_median_s * 1e3));
      continue;
    }
    out += fmt::format(
        "- **{}**: fastest to {} ≤ {:g} is **{}** (median {} ms, reached on {}/{} "
        "problems).",
        d.dataset, m, r.tol, d.fastest, FiniteSig(d.fastest_median_s * 1e3), d.fastest_reached,
        d.problems);
    if (d.peer_beats_ours)
      out += fmt::format(" The Siconos solver {} beats all of ours here{}.", d.fastest,
                         d.best_ours.empty() ? " (none of ours reached the tolerance)"
                                             : fmt::format(" (our fastest: {})", d.best_ours));
    out += "\n";
  }
  out += VersusSection(r, level);
  out += BinSection(r, level);
  if (common) {
    const int n = common->solvers.empty() ? 0 : common->solvers.front().problems;
    if (n == problems) return out + "\nEvery solver could take every problem.\n";
    out += "\n" +
           markdown::Heading(level, fmt::format("Only the {} problems every solver can take", n));
    out += n > 0 ? SolverTable(*common) : "None: some solver is not applicable to every problem.\n";
  }
  return out;
}

}  // namespace

std::string ProfileMarkdown(const ProfileResult& r, const ProfileResult* common) {
  return markdown::Heading(1, fmt::format("Performance profiles (time to {} ≤ {:g})",
                                          MetricName(r.metric), r.tol)) +
         ProfileBody(r, common, 2);
}

std::string CampaignMarkdown(const std::string& intro, const std::vector<std::string>& skipped,
                             const std::vector<ProfileResult>& per_tol,
                             const std::vector<ProfileResult>& common) {
  std::string out = markdown::Heading(1, "Performance profiles") + intro + "\n";
  if (!skipped.empty()) {
    out += "\n" + markdown::Heading(
                      2, fmt::format("Inputs left out ({}, --skip-invalid)", skipped.size()));
    for (const std::string& s : skipped) out += "- " + s + "\n";
  }
  markdown::Table table({"tolerance", "problems", "virtual best solves", "ours (best of)",
                         "Siconos (best of)", "Siconos' best solves, ours not"},
                        "llllll");
  for (const ProfileResult& r : per_tol) {
    auto solved = [&](const char* name) -> std::string {
      for (const SolverProfile& s : r.virtual_best)
        if (s.solver == name) return std::to_string(s.solved);
      return "—";
    };
    const bool both = r.has_ours && r.has_peers;
    const int problems = r.virtual_best.empty() ? 0 : r.virtual_best.front().problems;
    table.Row({fmt::format("{} ≤ {:g}", MetricName(r.metric), r.tol), std::to_string(problems),
               solved(kVirtualBest), both ? solved(kVirtualBestOurs) : "—",
               both ? solved(kVirtualBestPeer) : "—",
               both ? std::to_string(r.versus_summary.peer_only) : "—"});
  }
  out += "\n" + markdown::Heading(2, "Summary") + table.str();
  for (std::size_t i = 0; i < per_tol.size(); ++i) {
    const ProfileResult& r = per_tol[i];
    out +=
        "\n" + markdown::Heading(2, fmt::format("Time to {} ≤ {:g}", MetricName(r.metric), r.tol));
    out += ProfileBody(r, i < common.size() ? &common[i] : nullptr, 3);
  }
  return out;
}

std::string ProfileCsv(const std::vector<ProfileResult>& per_tol) {
  auto number = [](double x) {
    return std::isnan(x) ? std::string("nan") : std::isinf(x) ? std::string("inf") : "";
  };
  // time_for_mean_s before metric,tol: readers that take the last two columns keep working.
  std::string out = "dataset,problem,solver,peer,time_to_tol_s,ratio,time_for_mean_s,metric,tol\n";
  for (const ProfileResult& r : per_tol)
    for (const ProfileEntry& e : r.entries)
      out += fmt::format("{},{},{},{},{},{},{},{},{:g}\n", e.dataset, e.problem, e.solver,
                         IsPeer(e.solver) ? 1 : 0,
                         // Shortest round-trip form: the times equal the traces' to the last bit.
                         std::isfinite(e.time_s) ? fmt::format("{}", e.time_s) : "nan",
                         std::isfinite(e.ratio) ? fmt::format("{}", e.ratio) : number(e.ratio),
                         std::isfinite(e.time_for_mean_s) ? fmt::format("{}", e.time_for_mean_s)
                                                          : number(e.time_for_mean_s),
                         MetricName(r.metric), r.tol);
  return out;
}

}  // namespace ncp
