#include "harness/compare.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <set>

#include "common/error.h"
#include "common/float_limits.h"
#include "harness/markdown.h"

namespace ncp {
namespace {

// One job of one file: repeat 0 (or the lowest) for accuracy, minimum time over repeats.
struct Job {
  const RunRecord* first = nullptr;
  double min_time = kInf;
};

std::string Variant(const RunRecord& r) { return r.settings + "|" + r.budget + "|" + r.warm_start; }

// The content hash in a job key ("stem@hash|problem|..."); "" in keys without one.
std::string DatasetHash(const std::string& job_key) {
  const std::string dataset = job_key.substr(0, job_key.find('|'));
  const std::size_t at = dataset.rfind('@');
  return at == std::string::npos ? "" : dataset.substr(at + 1);
}

// The job without its settings.
std::string LooseKey(const RunRecord& r) {
  return r.dataset + "|" + r.problem + "|" + r.solver + "|" + r.budget + "|" + r.warm_start;
}

std::map<std::string, Job> Jobs(const std::vector<RunRecord>& rows, const char* side) {
  std::map<std::string, Job> jobs;
  // Two rows of one side that pair as one job (datasets of one name from two folders merged
  // into one file) would be compared as whichever came first, the other unseen.
  std::map<std::string, const RunRecord*> seen;
  for (const RunRecord& r : rows) {
    const std::string id = r.dataset + "|" + r.problem + "|" + r.solver + "|" + Variant(r);
    if (const auto [it, added] = seen.emplace(id + "|" + std::to_string(r.repeat), &r);
        !added && it->second->job_key != r.job_key)
      throw Error(fmt::format(
          "compare: the {} results hold two rows for {} (repeat {}) under the job keys '{}' and "
          "'{}': a job must be one row per repeat to pair (datasets of one name from two folders?)",
          side, id, r.repeat, it->second->job_key, r.job_key));
    Job& j = jobs[id];
    if (!j.first || r.repeat < j.first->repeat) j.first = &r;
    if (r.total_time_s >= 0 && std::isfinite(r.total_time_s))
      j.min_time = std::min(j.min_time, r.total_time_s);
  }
  return jobs;
}

// Non-finite residuals count as +inf (worst); values under the floor are rounding noise.
double Log10Clamped(double x, double floor) {
  if (!std::isfinite(x)) return kInf;
  return std::log10(std::max(x, floor));
}

double Decades(double base, double now, double floor) {
  const double a = Log10Clamped(base, floor), b = Log10Clamped(now, floor);
  if (std::isinf(a) && std::isinf(b)) return 0.0;
  return b - a;
}

// The solver column: the name, plus what tells variants apart when a dataset has several.
std::map<std::string, std::string> Labels(const std::map<std::string, Job>& jobs) {
  std::map<std::string, std::set<std::string>> settings, budgets, warms;
  for (const auto& [key, j] : jobs) {
    const std::string id = j.first->dataset + "|" + j.first->solver;
    settings[id].insert(j.first->settings);
    budgets[id].insert(j.first->budget);
    warms[id].insert(j.first->warm_start);
  }
  std::map<std::string, std::string> labels;
  for (const auto& [key, j] : jobs) {
    const RunRecord& r = *j.first;
    const std::string id = r.dataset + "|" + r.solver;
    std::string extra;
    if (settings[id].size() > 1) extra += r.settings;
    if (budgets[id].size() > 1) extra += (extra.empty() ? "" : "; ") + r.budget;
    if (warms[id].size() > 1) extra += (extra.empty() ? "" : "; ") + ("warm=" + r.warm_start);
    labels[key] = extra.empty() ? r.solver : r.solver + " {" + extra + "}";
  }
  return labels;
}

std::string Num(double x) { return std::isnan(x) ? "—" : fmt::format("{:.3g}", x); }

std::string Dec(double d) {
  if (std::isinf(d)) return d > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.2f}", d);
}

}  // namespace

int StatusRank(Outcome status) {
  switch (status) {
    case Outcome::kConverged:
      return 0;
    case Outcome::kMaxIterations:
    case Outcome::kTimeLimit:
    case Outcome::kStopped:
      return 1;
    case Outcome::kDiverged:
      return 2;
    case Outcome::kFailed:
    case Outcome::kNotApplicable:
      break;
  }
  return 3;
}

void CheckCompareOptions(const CompareOptions& o) {
  if (!(o.tol_decades >= 0) || !std::isfinite(o.tol_decades))
    throw Error(fmt::format("--tol-decades = {}: must be a finite number >= 0", o.tol_decades));
  if (!(o.floor > 0) || !std::isfinite(o.floor))
    throw Error(fmt::format("--floor = {}: must be a finite number > 0", o.floor));
  if (o.metrics.empty()) throw Error("--metrics: empty list");
  for (Metric m : o.metrics)
    if (m == Metric::kFbAA)
      throw Error("--metrics = fb_aa: must be an error (smaller is better); fb_aa is an accuracy");
}

bool CompareRow::regression() const {
  if (status_worse) return true;
  for (const MetricChange& m : metrics)
    if (m.worse) return true;
  return false;
}

CompareResult CompareRuns(const std::vector<RunRecord>& base, const std::vector<RunRecord>& now,
                          const CompareOptions& opt) {
  CheckCompareOptions(opt);
  const std::map<std::string, Job> a = Jobs(base, "baseline"), b = Jobs(now, "new");
  CompareResult res;
  res.metric_regressions.assign(opt.metrics.size(), 0);
  // Exact matches first. A solver that gained or renamed a setting has a new settings string
  // (every setting is listed): its jobs are paired when the rest of the key identifies exactly
  // one unmatched job on each side.
  std::map<std::string, Job> matched;
  std::map<std::string, std::string> new_key;  // baseline key → key in `b`
  std::map<std::string, std::vector<std::string>> loose_a, loose_b;
  for (const auto& [key, j] : a) {
    if (b.count(key)) {
      matched[key] = j;
      new_key[key] = key;
    } else {
      loose_a[LooseKey(*j.first)].push_back(key);
    }
  }
  for (const auto& [key, j] : b)
    if (!a.count(key)) loose_b[LooseKey(*j.first)].push_back(key);
  for (const auto& [loose, keys] : loose_a) {
    const auto it = loose_b.find(loose);
    if (keys.size() == 1 && it != loose_b.end() && it->second.size() == 1) {
      matched[keys[0]] = a.at(keys[0]);
      new_key[keys[0]] = it->second[0];
    } else {
      res.only_in_base += static_cast<int>(keys.size());
      for (const std::string& k : keys) {
        const RunRecord& r = *a.at(k).first;
        res.missing.push_back(fmt::format("{} | {} | {} ({})", r.dataset, r.problem, r.solver,
                                          r.settings.empty() ? "defaults" : r.settings));
      }
    }
  }
  for (const auto& [loose, keys] : loose_b) {
    const auto it = loose_a.find(loose);
    const bool paired = keys.size() == 1 && it != loose_a.end() && it->second.size() == 1;
    if (!paired) res.only_in_new += static_cast<int>(keys.size());
  }
  if (matched.empty())
    throw Error(
        fmt::format("compare: no job overlaps ({} baseline jobs, {} new jobs; a job is "
                    "dataset|problem|solver|settings|budget|warm_start)",
                    a.size(), b.size()));
  const std::map<std::string, std::string> labels = Labels(matched);
  std::vector<double> ratios;
  std::map<std::string, std::string> other_contents;  // dataset → its note
  for (const auto& [key, ja] : matched) {
    const Job& jb = b.at(new_key.at(key));
    const RunRecord &ra = *ja.first, &rb = *jb.first;
    const std::string ha = DatasetHash(ra.job_key), hb = DatasetHash(rb.job_key);
    if (!ha.empty() && !hb.empty() && ha != hb)
      other_contents.emplace(ra.dataset, fmt::format("{} (base {}, new {})", ra.dataset, ha, hb));
    CompareRow row;
    row.dataset = ra.dataset;
    row.problem = ra.problem;
    row.solver = labels.at(key);
    row.settings_changed = ra.settings != rb.settings;
    row.base_status = ra.status;
    row.new_status = rb.status;
    const int rank_a = StatusRank(ra.status), rank_b = StatusRank(rb.status);
    row.status_worse = rank_b > rank_a;
    bool better = rank_b < rank_a;
    for (std::size_t k = 0; k < opt.metrics.size(); ++k) {
      MetricChange c;
      c.base = ra.final_metrics[opt.metrics[k]];
      c.now = rb.final_metrics[opt.metrics[k]];
      c.decades = Decades(c.base, c.now, opt.floor);
      c.worse = c.decades > opt.tol_decades;
      better |= c.decades < -opt.tol_decades;
      res.metric_regressions[k] += c.worse;
      row.metrics.push_back(c);
    }
    row.time_ratio = std::isfinite(ja.min_time) && std::isfinite(jb.min_time) && ja.min_time > 0
                         ? jb.min_time / ja.min_time
                         : kNaN;
    if (!std::isnan(row.time_ratio) && ra.status == rb.status && !row.settings_changed)
      ratios.push_back(row.time_ratio);
    res.status_regressions += row.status_worse;
    res.regressions += row.regression();
    res.improvements += !row.regression() && better;
    res.rows.push_back(std::move(row));
  }
  for (const auto& [dataset, note] : other_contents) res.other_contents.push_back(note);
  std::sort(ratios.begin(), ratios.end());
  const std::size_t n = ratios.size();
  res.time_ratio_rows = static_cast<int>(n);
  res.median_time_ratio =
      n == 0 ? kNaN : (n % 2 ? ratios[n / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]));
  return res;
}

std::string CompareMarkdown(const CompareResult& r, const CompareOptions& opt) {
  std::vector<std::string> head = {"dataset", "problem", "solver", "status"};
  std::string align = "llll";
  for (Metric m : opt.metrics) {
    const char* name = kMetricNames[static_cast<int>(m)];
    head.insert(head.end(),
                {fmt::format("{} base", name), fmt::format("{} new", name),
                 // Values under the floor count as it (rounding noise): the change is clamped.
                 fmt::format("Δ decades (floor {:g})", opt.floor)});
    align += "rrr";
  }
  head.insert(head.end(), {"time ratio", "verdict"});
  align += "rl";
  markdown::Table table(std::move(head), align);
  for (const CompareRow& row : r.rows) {
    const std::string status =
        row.base_status == row.new_status
            ? std::string(ToString(row.base_status))
            : fmt::format("{} → {}", ToString(row.base_status), ToString(row.new_status));
    std::vector<std::string> cells = {
        row.dataset, row.problem, row.solver + (row.settings_changed ? " (settings changed)" : ""),
        status};
    bool better = StatusRank(row.new_status) < StatusRank(row.base_status);
    for (const MetricChange& c : row.metrics) {
      cells.insert(cells.end(), {Num(c.base), Num(c.now), Dec(c.decades)});
      better |= c.decades < -opt.tol_decades;
    }
    // No verdict is an empty cell, "| |".
    const char* verdict = row.regression() ? "**REGRESSION**" : better ? "better" : "";
    cells.insert(cells.end(), {Num(row.time_ratio), verdict});
    table.Row(std::move(cells));
  }
  std::string md = table.str();
  if (r.only_in_base || r.only_in_new)
    md += fmt::format("\nUnmatched jobs: {} only in the baseline, {} only in the new file.\n",
                      r.only_in_base, r.only_in_new);
  if (!r.other_contents.empty()) {
    md +=
        "\nDatasets of the same name with other contents (their problems are paired by name "
        "and may be other problems):\n\n";
    for (const std::string& d : r.other_contents) md += "- " + d + "\n";
  }
  if (!r.missing.empty()) {
    md += fmt::format("\nMissing from the new results{} (dataset | problem | solver):\n\n",
                      opt.allow_missing ? " (allowed by --allow-missing)" : ", a regression");
    for (const std::string& m : r.missing) md += "- " + m + "\n";
  }
  return md;
}

std::string CompareSummary(const CompareResult& r, const CompareOptions& opt) {
  std::string parts = fmt::format("status {}", r.status_regressions);
  for (std::size_t k = 0; k < opt.metrics.size(); ++k)
    parts += fmt::format(", {} {}", kMetricNames[static_cast<int>(opt.metrics[k])],
                         r.metric_regressions[k]);
  const std::string other =
      r.other_contents.empty()
          ? ""
          : fmt::format(", {} dataset(s) with other contents", r.other_contents.size());
  return fmt::format(
      "compare: {} jobs, {} regressions ({}; tolerance {:g} decades), {} missing from the new "
      "results{}{}, {} improvements, median time ratio {}{}: {}",
      r.rows.size(), r.regressions, parts, opt.tol_decades, r.missing.size(),
      opt.allow_missing && !r.missing.empty() ? " (allowed)" : "", other, r.improvements,
      Num(r.median_time_ratio),
      r.time_ratio_rows < static_cast<int>(r.rows.size())
          ? fmt::format(" (over the {} of {} jobs with the same status and settings)",
                        r.time_ratio_rows, r.rows.size())
          : "",
      CompareFailed(r, opt) ? "FAIL" : "OK");
}

bool CompareFailed(const CompareResult& r, const CompareOptions& opt) {
  return r.regressions > 0 || (!r.missing.empty() && !opt.allow_missing);
}

}  // namespace ncp
