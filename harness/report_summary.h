// The report's first section: per dataset the solver to use at res004 ≤ 1e-6 and the most robust
// one, with the sample size, then one ranking across datasets. Only successes rank a solver: a
// run that diverged, failed or was not applicable is never a success (IsSuccess), so a solver
// with no success on a dataset is listed as not ranked, with its statuses.
#pragma once

#include <string>
#include <vector>

#include "harness/report.h"
#include "harness/verdict_guard.h"

namespace ncp {

struct DatasetPick {
  int recommended = -1;  // index into DatasetSummary::solvers, −1 when none succeeds at 1e-6
  int runner_up = -1;    // second by the same rule, −1 when none
  bool tie = false;      // the runner-up equals the recommended by the rule (no winner)
  int robust = -1;       // most successes at high, then mid, then low; −1 when none succeeds
  std::vector<int> robust_ties;  // the other solvers with the same three counts (no winner)
  std::vector<int> unranked;     // no success at any profile
};

// Recommended at the mid profile: the highest res004 success rate at 1e-6, ties broken by the
// lower median time to res004 ≤ 1e-6 (traces), then by the lower shifted-geometric-mean time.
DatasetPick PickSolvers(const DatasetSummary& d);

// The "Summary" Markdown section.
std::string SummarySection(const std::vector<DatasetSummary>& datasets);

}  // namespace ncp
