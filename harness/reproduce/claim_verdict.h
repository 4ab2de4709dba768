// Verdicts of a paper's claims against our figures: "reproduced", "not reproduced" (ours falls
// short of what the paper reports) or "contradicted" (ours does what the paper says cannot be
// done). A check tests the statement, never restates it.
#pragma once

#include <string>
#include <vector>

namespace ncp {

enum class Verdict { kReproduced, kNotReproduced, kContradicted };
const char* ToString(Verdict v);

// "X reaches residuals under `tol`": reproduced when every case's best residual is ≤ tol.
Verdict ReachesVerdict(const std::vector<double>& best, double tol);

// "X struggles to get below `floor`" (its best is about `floor`): contradicted when our median
// best is a decade or more below it, reproduced within a decade either side, not reproduced when
// ours stays more than a decade above it.
Verdict FloorVerdict(const std::vector<double>& best, double floor);

// Median over finite values, +inf for a non-finite one; NaN when empty.
double MedianBest(std::vector<double> best);

}  // namespace ncp
