// Dolan–Moré performance profiles and shifted geometric means of the time to reach a tolerance,
// over every problem of a set of datasets, for ncpbench's and Siconos' solvers together.
//
// Per problem p and solver s, t(p, s) is the earliest trace time (setup included) at which the
// tolerance metric (res004) is ≤ tol (report.h TimeToTolerance); r(p, s) = t(p, s) / min_s t(p, s),
// +inf when s never reached it. ρ_s(τ) = share of problems with r(p, s) ≤ τ. For the shifted
// geometric mean a problem s did not solve counts at the longest of the time s spent on it, the
// time budget (when given) and the slowest time to tolerance of any solver on that problem, so
// failing early, or not applying at all, is not rewarded.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/run_record.h"

namespace ncp {

struct ProfileEntry {
  std::string dataset, problem, solver;
  double time_s;  // time to tolerance, NaN when not reached
  double ratio;   // performance ratio, +inf when not reached, NaN when nobody reached
};

struct SolverProfile {
  std::string solver;
  bool peer = false;                 // a Siconos solver ("siconos:" prefix)
  int problems = 0, solved = 0, not_applicable = 0;
  double shgeom_time_s = 0.0;        // shifted geometric mean (report.h kTimeShiftS)
  std::vector<double> ratios;        // sorted, one per problem (+inf when not reached)
  double Fraction(double tau) const; // ρ_s(τ)
};

struct DatasetVerdict {
  std::string dataset;
  std::string fastest;               // fastest solver to tol ("" when none reached it)
  double fastest_median_s = 0.0;     // its median time to tol over the problems it reached
  int fastest_reached = 0, problems = 0;
  std::string best_ours, best_peer;  // fastest ncpbench / Siconos solver ("" when none)
  bool peer_beats_ours = false;      // a Siconos solver is faster than every ncpbench solver
};

struct ProfileResult {
  double tol = 0.0;
  std::vector<ProfileEntry> entries;
  std::vector<SolverProfile> solvers;  // ordered by name
  std::vector<DatasetVerdict> datasets;
};

// One run per (dataset, problem, solver): the lowest repeat's trace, minimum time over repeats.
// `time_budget_s` (0: none) is the floor of the failure time in the shifted geometric mean.
ProfileResult ComputeProfiles(const std::vector<RunRecord>& rows, double tol, double time_budget_s);

// The runs of the problems that every solver could take (no not-applicable run): profiles over
// all problems count a not-applicable problem as unsolved, which this subset leaves out.
std::vector<RunRecord> RunsOnCommonProblems(const std::vector<RunRecord>& rows);

// Markdown: how to read, ρ_s at τ = 1, 2, 4, 10, 100, shifted geometric means, per-dataset
// fastest solver, and a plain sentence wherever a Siconos solver beats all of ours; then, when
// `common` is given, the same table over the problems every solver could take.
std::string ProfileMarkdown(const ProfileResult& r, const ProfileResult* common = nullptr);

// Long CSV "dataset,problem,solver,peer,time_to_tol_s,ratio" for plots/profiles.py.
std::string ProfileCsv(const ProfileResult& r);

}  // namespace ncp
