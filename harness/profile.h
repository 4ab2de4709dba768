// Dolan–Moré performance profiles and shifted geometric means of the time to reach a tolerance,
// over every problem of a set of datasets, for ncpbench's and Siconos' solvers together, as in
// Acary, Brémond & Huber (2018); plus the virtual best solver, our best against Siconos' best per
// problem, and success rates by problem descriptor.
//
// Per problem p and solver s, t(p, s) is the earliest trace time (setup included) at which the
// tolerance metric (res004 unless chosen) is ≤ tol, within the per-problem time budget when one
// is given; r(p, s) = t(p, s) / min_s t(p, s), +inf when s never reached it. ρ_s(τ) = share of
// problems with r(p, s) ≤ τ. For the shifted geometric mean a problem s did not solve counts at
// the longest of the time s spent on it, the time budget (when given) and the slowest time to
// tolerance of any solver on that problem, so failing early is not rewarded. A problem a solver
// cannot take (not-applicable: e.g. Siconos' fc3d on unilateral or bilateral rows) is no failure:
// it is left out of that solver's counts, ratios and mean and shown apart, and "ours vs Siconos"
// is computed over the problems both sides can take.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/metrics/metrics.h"
#include "harness/run_record.h"

namespace ncp {

// Labels of the virtual best solvers: per problem the fastest of all, of ours, of Siconos'.
inline constexpr char kVirtualBest[] = "virtual best";
inline constexpr char kVirtualBestOurs[] = "virtual best (ours)";
inline constexpr char kVirtualBestPeer[] = "virtual best (Siconos)";

struct ProfileEntry {
  std::string dataset, problem, solver;
  double time_s;  // time to tolerance, NaN when not reached
  double ratio;   // performance ratio, +inf when not reached, NaN when nobody reached
  // What this problem contributes to the solver's shifted geometric mean: time_s when reached,
  // else the penalty (longest of time spent, time budget, slowest success on the problem).
  double time_for_mean_s = 0.0;
};

struct SolverProfile {
  std::string solver;
  bool peer = false;          // a Siconos solver ("siconos:" prefix)
  bool virtual_best = false;  // one of the kVirtualBest* rows, not a real solver
  // problems: those it can take; not_applicable ones are left out of every count, ratio and mean.
  int problems = 0, solved = 0, not_applicable = 0;
  double shgeom_time_s = 0.0;         // shifted geometric mean (report.h kTimeShiftS)
  std::vector<double> ratios;         // sorted, one per problem (+inf when not reached)
  double Fraction(double tau) const;  // ρ_s(τ)
};

struct DatasetVerdict {
  std::string dataset;
  std::string fastest;            // fastest solver to tol ("" when none reached it)
  double fastest_median_s = 0.0;  // its median time to tol over the problems it reached
  int fastest_reached = 0, problems = 0;
  std::string best_ours, best_peer;  // fastest ncpbench / Siconos solver ("" when none)
  bool peer_beats_ours = false;      // a Siconos solver is faster than every ncpbench solver
};

// Our fastest solver against Siconos' fastest on one problem.
struct ProblemVersus {
  std::string dataset, problem;
  std::string best_ours, best_peer;   // "" when none of that side reached the tolerance
  double ours_s = 0.0, peer_s = 0.0;  // their times to tolerance, NaN when not reached
  double ratio = 0.0;                 // ours_s / peer_s, NaN unless both reached it
};

struct VersusSummary {
  int problems = 0;             // the problems both sides can take (a solver of each is applicable)
  int peer_not_applicable = 0;  // left out: no Siconos solver can take them
  int ours_not_applicable = 0;  // left out: none of ours can take them
  int peer_only = 0;            // Siconos' best solves it and none of ours does: the key figure
  int ours_only = 0, both = 0, neither = 0;
  int ours_faster = 0, peer_faster = 0, ties = 0;  // among `both`
  double geomean_ratio = 0.0;  // geometric mean of ours_s / peer_s over `both`, NaN when none
};

// Success counts of the problems whose descriptor falls in one bin.
struct DescriptorBin {
  std::string descriptor;  // "rank ratio", "mass ratio", "contacts"
  std::string bin;         // e.g. "< 1 (rank-deficient W)", "[1e2, 1e3)", "not computed"
  double order = 0.0;      // sort key within the descriptor
  int problems = 0;
  std::map<std::string, int> solved;  // per solver label and kVirtualBest
};

struct ProfileResult {
  Metric metric = Metric::kRes004;
  double tol = 0.0;
  std::vector<ProfileEntry> entries;
  std::vector<SolverProfile> solvers;       // ordered by name
  std::vector<SolverProfile> virtual_best;  // kVirtualBest, then ours / Siconos when both ran
  std::vector<DatasetVerdict> datasets;
  bool has_ours = false, has_peers = false;
  std::vector<ProblemVersus> versus;  // per problem, when both ours and Siconos' solvers ran
  VersusSummary versus_summary;
  std::vector<DescriptorBin> bins;  // ordered by descriptor, then bin
};

// Earliest trace time_s with metric `m` ≤ tolerance; NaN when the trace never reaches it.
double TimeToMetric(const RunRecord& r, Metric m, double tolerance);

// One run per (dataset, problem, solver): the lowest repeat's trace, minimum time over repeats.
// `time_budget_s` (0: none): a tolerance reached later counts as not reached, and it is the
// floor of the failure time in the shifted geometric mean.
ProfileResult ComputeProfiles(const std::vector<RunRecord>& rows, double tol, double time_budget_s,
                              Metric metric = Metric::kRes004);

// The runs of the problems that every solver could take (no not-applicable run): profiles over
// all problems count a not-applicable problem as unsolved, which this subset leaves out.
std::vector<RunRecord> RunsOnCommonProblems(const std::vector<RunRecord>& rows);

// Markdown for one tolerance: how to read, ρ_s at τ = 1, 2, 4, 10, 100 with the virtual best
// solvers, shifted geometric means, per-dataset fastest solver (a plain sentence wherever a
// Siconos solver beats all of ours), our best vs Siconos' best per problem, success by
// descriptor bin; then, when `common` is given, the table over the problems every solver could
// take.
std::string ProfileMarkdown(const ProfileResult& r, const ProfileResult* common = nullptr);

// The campaign report: `intro` (what ran), the inputs left out (`skipped`, "path: reason"
// lines), a summary line per tolerance, then one ProfileMarkdown section per tolerance.
// `common` is empty or parallel to `per_tol`.
std::string CampaignMarkdown(const std::string& intro, const std::vector<std::string>& skipped,
                             const std::vector<ProfileResult>& per_tol,
                             const std::vector<ProfileResult>& common);

// Long CSV "dataset,problem,solver,peer,time_to_tol_s,ratio,time_for_mean_s,metric,tol" for
// plots/profiles.py, the rows of every tolerance; time_for_mean_s is written with 17 digits so
// that the plot's shifted geometric means are bit-identical to shgeom_time_s.
std::string ProfileCsv(const std::vector<ProfileResult>& per_tol);
inline std::string ProfileCsv(const ProfileResult& r) { return ProfileCsv(std::vector{r}); }

}  // namespace ncp
