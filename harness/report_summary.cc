#include "harness/report_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace ncp {
namespace {

constexpr std::size_t kRes = 0;   // kReportMetrics index of res004
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
  auto better_robust = [&](int a, int b) {
    const SolverSummary &x = d.solvers[a], &y = d.solvers[b];
    return std::make_tuple(-Rate(x, kHigh), -Rate(x, kMid), -Rate(x, kLow),
                           OrInf(x.shgeom_time_s)) <
           std::make_tuple(-Rate(y, kHigh), -Rate(y, kMid), -Rate(y, kLow),
                           OrInf(y.shgeom_time_s));
  };
  for (int i = 0; i < static_cast<int>(d.solvers.size()); ++i) {
    const SolverSummary& s = d.solvers[i];
    if (Rate(s, kLow) == 0 && Rate(s, kMid) == 0 && Rate(s, kHigh) == 0) {
      pick.unranked.push_back(i);
      continue;
    }
    if (Rate(s, kMid) > 0 && (pick.recommended < 0 || better_mid(i, pick.recommended)))
      pick.recommended = i;
    if (pick.robust < 0 || better_robust(i, pick.robust)) pick.robust = i;
  }
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
  std::string out = "## Summary\n\n";
  out += fmt::format(
      "Per dataset: **recommended** is the solver with the most problems solved to res004 ≤ {} "
      "(final value; diverged, failed and not-applicable runs never count), ties broken by the "
      "median time to reach res004 ≤ {} in its trace, then by the shifted geometric mean of its "
      "total time. **Most robust** solves the most problems to the high profile (≤ {}{}), then "
      "mid, then low. Counts are solved / problems. A solver that solves nothing is not ranked; "
      "its statuses are listed.\n\n",
      mid, mid, high,
      one_high ? "" : ": the run's --tol per dataset, given in the cell");
  out += fmt::format("| dataset | problems | recommended at ≤ {} | solved | time to {} (median) | "
                     "most robust | solved ≤ {} / ≤ {} | not ranked |\n",
                     mid, mid, high, mid);
  out += "|---|---:|---|---:|---:|---|---:|---|\n";
  // Across datasets: per solver name, the datasets it ran on, its mean success rate at mid and
  // the datasets where it is recommended.
  struct Cross {
    int datasets = 0, recommended = 0, robust = 0;
    double rate_sum = 0.0;
  };
  std::map<std::string, Cross> cross;
  std::vector<std::string> small;
  for (const DatasetSummary& d : datasets) {
    const DatasetPick pick = PickSolvers(d);
    int problems = 0;
    for (const SolverSummary& s : d.solvers) problems = std::max(problems, s.problems);
    if (problems < kSmallSample) small.push_back(d.dataset);
    std::string unranked;
    for (int i : pick.unranked) {
      unranked += fmt::format("{}{} ({})", unranked.empty() ? "" : "; ", d.solvers[i].label,
                              Statuses(d.solvers[i]));
    }
    const SolverSummary* rec = pick.recommended >= 0 ? &d.solvers[pick.recommended] : nullptr;
    const SolverSummary* rob = pick.robust >= 0 ? &d.solvers[pick.robust] : nullptr;
    out += fmt::format(
        "| {} | {}{} | {} | {} | {} | {} | {} | {} |\n", d.dataset, problems,
        problems < kSmallSample ? " ⚠" : "", rec ? "**" + rec->label + "**" : "none",
        rec ? fmt::format("{}/{}", Solved(*rec, kMid), rec->problems) : "—",
        rec ? Ms(rec->median_time_to_tolerance_s) : "—", rob ? rob->label : "none",
        rob ? fmt::format("{}/{}{} / {}/{}", Solved(*rob, kHigh), rob->problems,
                          one_high ? "" : " (≤ " + Tol(d.tolerances[kHigh]) + ")",
                          Solved(*rob, kMid), rob->problems)
            : "—",
        unranked.empty() ? "—" : unranked);
    for (int i = 0; i < static_cast<int>(d.solvers.size()); ++i) {
      Cross& c = cross[d.solvers[i].label];
      ++c.datasets;
      c.rate_sum += Rate(d.solvers[i], kMid);
      c.recommended += i == pick.recommended;
      c.robust += i == pick.robust;
    }
  }
  if (!small.empty()) {
    out += fmt::format("\n⚠ fewer than {} problems: ", kSmallSample);
    for (std::size_t i = 0; i < small.size(); ++i) out += (i ? ", " : "") + small[i];
    out += " — a recommendation there rests on a small sample.\n";
  }
  std::vector<std::pair<std::string, Cross>> ranked(cross.begin(), cross.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    const double ra = a.second.rate_sum / a.second.datasets;
    const double rb = b.second.rate_sum / b.second.datasets;
    return std::make_tuple(-ra, -a.second.recommended, a.first) <
           std::make_tuple(-rb, -b.second.recommended, b.first);
  });
  out += fmt::format(
      "\n### Across datasets\n\nMean over the datasets a solver ran on of its share of problems "
      "solved to res004 ≤ {}, and the datasets where it is recommended or most robust.\n\n"
      "| rank | solver | datasets | mean solved ≤ {} | recommended on | most robust on |\n"
      "|---:|---|---:|---:|---:|---:|\n",
      mid, mid);
  int rank = 0;
  for (const auto& [label, c] : ranked) {
    out += fmt::format("| {} | {} | {} | {:.0f}% | {} | {} |\n", ++rank, label, c.datasets,
                       100.0 * c.rate_sum / c.datasets, c.recommended, c.robust);
  }
  return out + "\n";
}

}  // namespace ncp
