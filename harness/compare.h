// Regression compare of two results files (a baseline and a new run): per dataset × problem ×
// solver variant, the change of each final residual in decades, the status change and the time
// ratio. A regression is a residual that got worse by more than a tolerance or a status that got
// worse; time ratios are reported only, since they depend on the machine and its load.
#pragma once

#include <string>
#include <vector>

#include "harness/metrics/metrics.h"
#include "harness/run_record.h"

namespace ncp {

// Status ranks, better first: budget exhaustion by iterations or by time is the same outcome,
// a non-finite iterate is worse, and a solver that failed or no longer applies is worst.
// converged < max-iterations = time-limit < diverged < failed = not-applicable.
int StatusRank(Outcome status);

struct CompareOptions {
  std::vector<Metric> metrics = {Metric::kRes004, Metric::kNatmapAbs};
  double tol_decades = 0.3;  // allowed increase of log10(residual)
  // Residuals below this are at rounding level: both sides are raised to it before comparing,
  // so that 1e-16 → 1e-15 is not a regression.
  double floor = 1e-12;
  // A baseline job the new results lack (a solver dropped or renamed, a problem gone) is a
  // regression unless allowed: regression tracking must not pass when a solver disappears.
  bool allow_missing = false;
};

// Validates the options; throws ncp::Error "field = value: rule".
void CheckCompareOptions(const CompareOptions& o);

struct MetricChange {
  double base = 0.0, now = 0.0;  // final values (NaN when not computed)
  double decades = 0.0;  // log10(max(now, floor)) − log10(max(base, floor)); ±inf allowed
  bool worse = false;    // decades > tol_decades
};

struct CompareRow {
  std::string dataset, problem, solver;  // solver: name, plus the variant when a file has several
  bool settings_changed = false;         // paired although the settings strings differ
  Outcome base_status = Outcome::kFailed, new_status = Outcome::kFailed;
  bool status_worse = false;
  std::vector<MetricChange> metrics;  // in CompareOptions::metrics order
  double time_ratio = 0.0;            // new / base of the minimum total_time_s; NaN when unknown
  bool regression() const;
};

struct CompareResult {
  std::vector<CompareRow> rows;      // matched jobs, ordered by dataset, problem, solver
  int only_in_base = 0;              // baseline jobs the new file lacks
  std::vector<std::string> missing;  // those jobs: "dataset | problem | solver"
  int only_in_new = 0;
  int regressions = 0;  // rows with regression()
  int status_regressions = 0;
  std::vector<int> metric_regressions;  // per metric
  int improvements = 0;                 // rows with a better status or a metric better by > tol
  // Over the like-for-like rows only (same status, same settings: a diverged run's early stop
  // or another setting's work is no speed change); NaN when none has times.
  double median_time_ratio = 0.0;
  int time_ratio_rows = 0;  // the rows it is the median of
  // Datasets paired by name whose contents (the hash in the job keys) differ: "stem (base
  // <hash>, new <hash>)". Their problems may be other problems of the same names.
  std::vector<std::string> other_contents;
};

// Matches rows by (dataset, problem, solver, settings, budget, warm start), or without the settings
// when that leaves one unmatched job on each side; repeat 0 gives the
// residuals and status, the minimum over repeats the time. Throws ncp::Error when no job
// overlaps or a status is unknown.
CompareResult CompareRuns(const std::vector<RunRecord>& base, const std::vector<RunRecord>& now,
                          const CompareOptions& opt);

// A Markdown table (one line per matched job) followed by unmatched counts.
std::string CompareMarkdown(const CompareResult& r, const CompareOptions& opt);

// One line: "compare: N jobs, R regressions (...), M missing, I improvements, median time ratio
// T: OK|FAIL".
std::string CompareSummary(const CompareResult& r, const CompareOptions& opt);

// Whether the comparison fails: a regression, or a baseline job missing from the new results
// (unless opt.allow_missing).
bool CompareFailed(const CompareResult& r, const CompareOptions& opt);

}  // namespace ncp
