// Verdicts of a paper's claims against our figures: "reproduced", "not reproduced" (ours falls
// short of what the paper reports) or "contradicted" (ours does what the paper says cannot be
// done, or the opposite of what it says happens); "reproduced for a range" where the figure
// hangs on a value the paper does not give and the claim holds for part of that value's swept
// range only; "not assessed" where the run that measured it cannot carry a verdict
// (harness/reproduce/claim_ledger.h). A check tests the statement, never restates it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ncp {

enum class Verdict {
  kReproduced,
  kNotReproduced,
  kContradicted,
  kNotAssessed,
  kReproducedForRange
};

// A verdict with what held of a claim that has a direction and a magnitude ("X is 2.2× Y"):
// e.g. "direction reproduced, magnitude exceeded (6.9× vs the paper's 2.2×, beyond 3×)".
struct Judged {
  Judged(Verdict v, std::string h = "") : verdict(v), held(std::move(h)) {}  // NOLINT: implicit
  Verdict verdict;
  std::string held;
};
const char* ToString(Verdict v);

// "X reaches residuals under `tol`": reproduced when every case's best residual is ≤ tol.
Verdict ReachesVerdict(const std::vector<double>& best, double tol);

// "X struggles to get below `floor`" (its best is about `floor`): contradicted when our median
// best is a decade or more below it, reproduced within a decade either side, not reproduced when
// ours stays more than a decade above it.
Verdict FloorVerdict(const std::vector<double>& best, double floor);

// "X is `claimed` × Y" for a ratio the paper gives (e.g. residual 0.1 × PGS's, 2.78× the time):
// reproduced when ours is within `factor` of it either side; contradicted when ours is on the
// other side of 1 (the order of X and Y reversed); not reproduced otherwise, saying whether the
// direction held and the magnitude fell short of or exceeded the paper's. Non-finite or
// non-positive figures: not reproduced.
Judged RatioVerdict(double ours, double claimed, double factor);

// "a > b > c …" on figures listed in the claimed order: reproduced when strictly decreasing,
// contradicted when strictly increasing (the order reversed), not reproduced otherwise.
Verdict OrderVerdict(const std::vector<double>& claimed_descending);

// "X is at most `bound`" (a one-number figure): reproduced when ours ≤ bound, else not reproduced.
Verdict AtMostVerdict(double ours, double bound);

// "X and Y are about the same" (values in the same unit, e.g. −log10 residuals): reproduced when
// every value is within `tol` of `claimed`, else not reproduced.
Verdict NearVerdict(const std::vector<double>& ours, double claimed, double tol);

// "X grows linearly with the size": a high R² alone also fits a mildly convex curve over a
// 5–8× span, so the log-log slope decides: 0.8–1.2 with R² ≥ 0.99 reproduced, 1.5 or more
// (clearly superlinear) contradicted, else not reproduced.
Verdict LinearGrowthVerdict(double loglog_slope, double r2);

// One value of an unknown the paper does not give (a stopping tolerance, a gain) and the
// claim's verdict measured there.
struct AtValue {
  double value;
  Verdict verdict;
};

// A claim whose figure hangs on `unknown` (e.g. "the res004 threshold"), judged at the
// protocol's value (`at_protocol`) and over a sweep of the unknown's plausible range. Reproduced
// at the protocol's value: unchanged. Else, where it holds at some swept values: "reproduced for
// a range", what held naming them ("reproduced for the res004 threshold ∈ [0.002, 0.005] of
// 1e-06–0.01 swept; at the protocol's value: …"). Else `at_protocol`, the sweep named in what
// held ("at no value of … over … swept").
Judged RangeVerdict(const Judged& at_protocol, const std::string& unknown,
                    std::vector<AtValue> sweep);

// Median over finite values, +inf for a non-finite one; NaN when empty.
double MedianBest(std::vector<double> best);

// Markdown: the claims table's header (rows: ClaimLedger::Row).
std::string ClaimHeader();

}  // namespace ncp
