#include "harness/report_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "harness/markdown.h"

namespace ncp {
namespace {

constexpr std::size_t kRes = 0;  // kReportMetrics index of res004
constexpr std::size_t kLow = 0, kMid = 1, kHigh = 2;
static_assert(kReportMetrics[kRes] == Metric::kRes004);

double Rate(const SolverSummary& s, std::size_t profile) { return s.success_rate[kRes][profile]; }

// NaN times sort last.
double OrInf(double t) { return std::isnan(t) ? INFINITY : t; }

int Solved(const SolverSummary& s, std::size_t profile) {
  return static_cast<int>(std::lround(Rate(s, profile) * s.problems));
}

std::string Statuses(const SolverSummary& s) {
  std::string out;
  for (std::size_t i = 0; i < kOutcomeNames.size(); ++i) {
    if (s.status_counts[i] == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", s.status_counts[i], kOutcomeNames[i]);
  }
  return out;
}

// 1e-6 rather than 1e-06, as the rest of the report writes tolerances.
std::string Tol(double x) {
  std::string t = fmt::format("{:g}", x);
  const std::size_t e = t.find("e-0");
  if (e != std::string::npos) t.erase(e + 2, 1);
  return t;
}

std::string Ms(double s) { return std::isnan(s) ? "n/a" : fmt::format("{:.3g} ms", 1e3 * s); }

}  // namespace

DatasetPick PickSolvers(const DatasetSummary& d) {
  DatasetPick pick;
  auto better_mid = [&](int a, int b) {
    const SolverSummary &x = d.solvers[a], &y = d.solvers[b];
    return std::make_tuple(-Rate(x, kMid), OrInf(x.median_time_to_tolerance_s),
                           OrInf(x.shgeom_time_s)) <
           std::make_tuple(-Rate(y, kMid), OrInf(y.median_time_to_tolerance_s),
                           OrInf(y.shgeom_time_s));
  };
  // Robustness is the counts alone: equal counts are a tie, named as one (time is the
  // recommended solver's criterion, not this one's).
  auto robust_key = [&](int a) {
    const SolverSummary& x = d.solvers[a];
    return std::make_tuple(-Rate(x, kHigh), -Rate(x, kMid), -Rate(x, kLow));
  };
  auto better_robust = [&](int a, int b) { return robust_key(a) < robust_key(b); };
  for (int i = 0; i < static_cast<int>(d.solvers.size()); ++i) {
    const SolverSummary& s = d.solvers[i];
    if (Rate(s, kLow) == 0 && Rate(s, kMid) == 0 && Rate(s, kHigh) == 0) {
      pick.unranked.push_back(i);
      continue;
    }
    if (Rate(s, kMid) > 0) {
      if (pick.recommended < 0 || better_mid(i, pick.recommended)) {
        pick.runner_up = pick.recommended;
        pick.recommended = i;
      } else if (pick.runner_up < 0 || better_mid(i, pick.runner_up)) {
        pick.runner_up = i;
      }
    }
    if (pick.robust < 0 || better_robust(i, pick.robust)) pick.robust = i;
  }
  pick.tie = pick.runner_up >= 0 && !better_mid(pick.recommended, pick.runner_up);
  for (int i = 0; i < static_cast<int>(d.solvers.size()) && pick.robust >= 0; ++i)
    if (i != pick.robust &&
        std::find(pick.unranked.begin(), pick.unranked.end(), i) == pick.unranked.end() &&
        robust_key(i) == robust_key(pick.robust))
      pick.robust_ties.push_back(i);
  return pick;
}

std::string SummarySection(const std::vector<DatasetSummary>& datasets) {
  const std::string mid = Tol(kAccuracyProfiles[kMid].tolerance);
  // The high profile is the run's --tol where the runs stopped below 1e-6 (report.h); one value
  // in the column head when every dataset shares it, else per cell.
  std::set<double> highs;
  for (const DatasetSummary& d : datasets) highs.insert(d.tolerances[kHigh]);
  const bool one_high = highs.size() == 1;
  const std::string high = one_high ? Tol(*highs.begin()) : "high";
  std::string out = markdown::Heading(2, "Summary");
  out += fmt::format(
      "Per dataset: **recommended** is the solver with the most problems solved to res004 ≤ {} "
      "(final value; diverged, failed and not-applicable runs never count), ties broken by the "
      "median time to reach res004 ≤ {} in its trace, then by the shifted geometric mean of its "
      "total time. **Most robust** solves the most problems to the high profile (≤ {}{}), then "
      "mid, then low. Counts are solved / problems. A solver that solves nothing is not ranked; "
      "its statuses are listed.\n\n",
      mid, mid, high, one_high ? "" : ": the run's --tol per dataset, given in the cell");
  markdown::Table table({"dataset", "problems", fmt::format("recommended at ≤ {}", mid), "solved",
                         fmt::format("time to {} (median)", mid), "runner-up (solved, median time)",
                         "most robust", fmt::format("solved ≤ {} / ≤ {}", high, mid), "not ranked"},
                        "lrlrrllrl");
  // Across datasets: per solver name, the datasets it ran on, its mean success rate at mid and
  // the datasets where it is recommended.
  struct Cross {
    int datasets = 0, not_applicable = 0, recommended = 0, robust = 0;
    double rate_sum = 0.0;
  };
  std::map<std::string, Cross> cross;
  std::vector<std::string> small;
  for (const DatasetSummary& d : datasets) {
    DatasetPick pick = PickSolvers(d);
    const int problems = d.problems;
    // Too little behind a verdict (a small sample, one solver, runs stopped short of the mid
    // tolerance): "not assessed", and no count across datasets.
    const std::string too_small = SampleTooSmall(problems, static_cast<int>(d.solvers.size()));
    const std::string no_mid =
        too_small.empty() ? StoppedShortOf(d.run_tolerance, kAccuracyProfiles[kMid].tolerance)
                          : too_small;
    if (problems < kSmallSample) small.push_back(d.dataset);
    std::string unranked;
    for (int i : pick.unranked) {
      unranked += fmt::format("{}{} ({})", unranked.empty() ? "" : "; ", d.solvers[i].label,
                              Statuses(d.solvers[i]));
    }
    // Not assessed: no winner's figures either (the dataset's own table has them all).
    const SolverSummary* rec =
        pick.recommended >= 0 && no_mid.empty() ? &d.solvers[pick.recommended] : nullptr;
    const SolverSummary* rob = pick.robust >= 0 ? &d.solvers[pick.robust] : nullptr;
    const SolverSummary* run =
        pick.runner_up >= 0 && no_mid.empty() ? &d.solvers[pick.runner_up] : nullptr;
    std::string rec_cell = rec ? "**" + rec->label + "**" : "none";
    if (rec && run && pick.tie) rec_cell = "tie: **" + rec->label + "**, **" + run->label + "**";
    if (!no_mid.empty()) rec_cell = "not assessed (" + no_mid + ")";
    std::string rob_cell = rob ? rob->label : "none";
    if (rob && !pick.robust_ties.empty()) {
      rob_cell = "tie: " + rob->label;
      for (int i : pick.robust_ties) rob_cell += ", " + d.solvers[i].label;
    }
    // Runs stopped at a --tol looser than the high profile's cannot say who solves most there.
    const std::string no_high =
        too_small.empty() ? StoppedShortOf(d.run_tolerance, d.tolerances[kHigh]) : too_small;
    if (!no_high.empty()) rob_cell = "not assessed (" + no_high + ")";
    // Solved counts at high / mid, and at low where those are both 0 (the low count decided).
    std::string rob_counts = "—";
    if (rob && no_high.empty()) {
      rob_counts = fmt::format("{}/{}{} / {}/{}", Solved(*rob, kHigh), rob->problems,
                               one_high ? "" : " (≤ " + Tol(d.tolerances[kHigh]) + ")",
                               Solved(*rob, kMid), rob->problems);
      if (Solved(*rob, kHigh) == 0 && Solved(*rob, kMid) == 0)
        rob_counts += fmt::format(" (≤ {}: {}/{})", Tol(d.tolerances[kLow]), Solved(*rob, kLow),
                                  rob->problems);
    }
    table.Row({d.dataset, fmt::format("{}{}", problems, problems < kSmallSample ? " ⚠" : ""),
               rec_cell, rec ? fmt::format("{}/{}", Solved(*rec, kMid), rec->problems) : "—",
               rec ? Ms(rec->median_time_to_tolerance_s) : "—",
               run ? fmt::format("{} ({}/{}, {})", run->label, Solved(*run, kMid), run->problems,
                                 Ms(run->median_time_to_tolerance_s))
                   : "—",
               rob_cell, rob_counts, unranked.empty() ? "—" : unranked});
    if (!no_mid.empty() || pick.tie) pick.recommended = -1;  // no count across datasets
    if (!no_high.empty() || !pick.robust_ties.empty()) pick.robust = -1;
    for (int i = 0; i < static_cast<int>(d.solvers.size()); ++i) {
      const SolverSummary& s = d.solvers[i];
      Cross& c = cross[s.label];
      // A dataset the solver cannot take at all is no failure: left out of its mean.
      const int na = s.status_counts[static_cast<std::size_t>(Outcome::kNotApplicable)];
      if (s.problems > 0 && na == s.problems) {
        ++c.not_applicable;
        continue;
      }
      ++c.datasets;
      c.rate_sum += Rate(s, kMid);
      c.recommended += i == pick.recommended;
      c.robust += i == pick.robust;
    }
  }
  out += table.str();
  if (!small.empty()) {
    out += fmt::format("\n⚠ fewer than {} problems: ", kSmallSample);
    for (std::size_t i = 0; i < small.size(); ++i) out += (i ? ", " : "") + small[i];
    out += " — no verdict there (not assessed).\n";
  }
  std::vector<std::pair<std::string, Cross>> ranked(cross.begin(), cross.end());
  auto mean = [](const Cross& c) { return c.datasets ? c.rate_sum / c.datasets : -1.0; };
  std::sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
    return std::make_tuple(-a.second.recommended, -mean(a.second), a.first) <
           std::make_tuple(-b.second.recommended, -mean(b.second), b.first);
  });
  out += "\n" + markdown::Heading(3, "Across datasets") +
         fmt::format(
             "Ranked by the datasets where a solver is recommended (assessed ones only: not a "
             "small sample, more than one solver, no tie), then by its mean share of problems "
             "solved to res004 ≤ {} over the datasets it applies to; a dataset where every run "
             "of it is not applicable is left out of the mean and counted apart.\n\n",
             mid);
  markdown::Table across({"rank", "solver", "recommended on", fmt::format("mean solved ≤ {}", mid),
                          "datasets it applies to", "not applicable on", "most robust on"},
                         "rlrrrrr");
  // No dataset assessed: nothing to rank by (the order would be the mean share alone, on
  // samples no dataset's verdict could rest on).
  int assessed = 0;
  for (const auto& [label, c] : ranked) assessed += c.recommended + c.robust;
  if (assessed == 0)
    return out +
           "Not ranked: no dataset has a sole assessed winner (each is not assessed, a tie or "
           "without a solver that succeeds; see the table above).\n";
  // Equal figures share their rank.
  int rank = 0;
  const Cross* previous = nullptr;
  for (std::size_t k = 0; k < ranked.size(); ++k) {
    const auto& [label, c] = ranked[k];
    if (!previous || previous->recommended != c.recommended || mean(*previous) != mean(c))
      rank = static_cast<int>(k) + 1;
    previous = &c;
    across.Row({std::to_string(rank), label, std::to_string(c.recommended),
                c.datasets ? fmt::format("{:.0f}%", 100.0 * mean(c)) : std::string("—"),
                std::to_string(c.datasets), std::to_string(c.not_applicable),
                std::to_string(c.robust)});
  }
  return out + across.str() + "\n";
}

}  // namespace ncp
