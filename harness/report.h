// Markdown report of a results file: one table per dataset, one line per solver, in the manner of
// qpbenchmark (success at named accuracy profiles, shifted geometric means of time).
//
// Aggregation (SummarizeResults) is separate from formatting (MarkdownReport), so that other
// commands can reuse the numbers.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "harness/metrics/metrics.h"
#include "harness/run_record.h"

namespace ncp {

struct AccuracyProfile {
  const char* name;
  double tolerance;
};
// The fixed profiles. A run stopped at its own --tol T < 1e-6 gets high = T instead of 1e-9: its
// solvers stop at T, so a stricter high would only measure overshoot (DatasetSummary::tolerances).
inline constexpr std::array<AccuracyProfile, 3> kAccuracyProfiles = {
    {{"low", 1e-3}, {"mid", 1e-6}, {"high", 1e-9}}};
using ProfileTolerances = std::array<double, kAccuracyProfiles.size()>;

// The high profile of rows that all share one tolerance T (budget "tol=T"): T when 0 < T < the
// mid profile's 1e-6, else the fixed 1e-9. Sets *run_tolerance to T (NaN when the rows differ
// or have none).
ProfileTolerances TolerancesFor(const std::vector<const RunRecord*>& rows, double* run_tolerance);

// The metrics whose success rates the report shows.
inline constexpr std::array<Metric, 2> kReportMetrics = {Metric::kRes004, Metric::kNatmapRel};

// Shift of the geometric mean of times: keeps sub-millisecond runs from dominating the mean.
inline constexpr double kTimeShiftS = 1e-3;

// "Fastest solver" means fastest to reach res004 ≤ this tolerance (the mid profile).
inline constexpr double kTimeToTolerance = 1e-6;

// One solver variant (solver × settings × budget × warm start) on one dataset. Per problem, the
// run with the lowest repeat number gives accuracy, status and iterations; times are the minimum
// over repeats.
struct SolverSummary {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

  std::string label;  // solver name, plus the settings that tell its variants apart
  int problems = 0;   // distinct problems with a row
  // success_rate[m][p]: fraction of problems solved to kAccuracyProfiles[p] in kReportMetrics[m]
  std::array<std::array<double, kAccuracyProfiles.size()>, kReportMetrics.size()> success_rate{};
  double shgeom_time_s = kNaN;  // shifted geometric mean of total_time_s, NaN without times
  double relative_time = kNaN;  // shgeom_time_s / the best shgeom_time_s on the dataset
  double median_iterations = kNaN;
  double median_res004 = kNaN;                            // non-finite values count as +inf
  double median_natmap_rel = kNaN;                        // non-finite values count as +inf
  std::array<int, kOutcomeNames.size()> status_counts{};  // indexed by Outcome
  int reached_tolerance = 0;  // problems whose trace reached res004 ≤ kTimeToTolerance
  double median_time_to_tolerance_s = kNaN;  // over those problems
  // Error at a common budget: per problem, res004 of this solver's trace at the time the fastest
  // solver on that problem reached res004 ≤ kTimeToTolerance; the median over the problems some
  // solver reached it on (non-finite and missing count as +inf). NaN when no problem qualifies.
  double median_res004_at_best_time = kNaN;
  std::string reasons;  // distinct messages of its diverged/failed/not-applicable runs
};

struct DatasetSummary {
  std::string dataset;
  ProfileTolerances tolerances{};  // of kAccuracyProfiles, high possibly from the run's --tol
  double run_tolerance = SolverSummary::kNaN;  // the --tol its rows share, NaN when none/mixed
  std::vector<SolverSummary> solvers;          // ordered by label
  int problems = 0;                            // distinct problems of any solver
  int repeats = 0;                             // most repeats of one job
  bool traced = false;                         // some row has a trace
  std::string budgets;                         // its rows' distinct budgets, "; "-joined
  // Indices into solvers, −1 when no solver qualifies.
  int most_accurate = -1;  // lowest finite median res004
  // The solvers that reached res004 ≤ kTimeToTolerance on some problem, by the rule "most
  // problems reached, then the least median time to it"; fastest = by_time_to_tolerance[0].
  std::vector<int> by_time_to_tolerance;
  int fastest = -1;
};

// A peer solver (another library's or engine's, e.g. "siconos:nsgs"): its name has a prefix.
inline bool IsPeerSolver(const std::string& name) { return name.find(':') != std::string::npos; }

// The row's time budget in seconds (its budget's "time_ms"), 0 when it had none.
double TimeBudgetS(const RunRecord& r);

// The --tol the row's run stopped at (its budget's "tol"), NaN when it had none; `metric`, when
// given, receives the budget's tol_metric ("res004" where the budget names none).
double StopToleranceOf(const RunRecord& r, std::string* metric = nullptr);

// The median of `v` (the mean of the middle two for an even count); NaN when empty.
double SampleMedian(std::vector<double> v);

// exp(mean(log(v + shift))) − shift over `values`; NaN when empty.
double ShiftedGeometricMean(const std::vector<double>& values, double shift);

// Final `m` ≤ tolerance, finite, and status neither diverged nor failed.
bool IsSuccess(const RunRecord& r, Metric m, double tolerance);

// Earliest trace time_s with res004 ≤ tolerance; NaN when the trace never reaches it.
double TimeToTolerance(const RunRecord& r, double tolerance);

// res004 of the last trace point at or before time_s; +inf when none is (no iterate yet), NaN
// without a trace.
double Res004AtTime(const RunRecord& r, double time_s);

// Summaries per dataset (ordered by name).
std::vector<DatasetSummary> SummarizeResults(const std::vector<RunRecord>& rows);

// The full report: header from `run_attrs` (date, cpu, threads, git_revision, version and the
// rest), how to read it, then one section per dataset.
std::string MarkdownReport(const std::vector<RunRecord>& rows,
                           const std::map<std::string, std::string>& run_attrs);

}  // namespace ncp
