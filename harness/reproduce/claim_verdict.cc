#include "harness/reproduce/claim_verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ncp {

const char* ToString(Verdict v) {
  switch (v) {
    case Verdict::kReproduced: return "reproduced";
    case Verdict::kNotReproduced: return "not reproduced";
    case Verdict::kContradicted: return "contradicted";
  }
  return "not reproduced";
}

double MedianBest(std::vector<double> best) {
  if (best.empty()) return std::numeric_limits<double>::quiet_NaN();
  for (double& b : best) b = std::isfinite(b) ? b : std::numeric_limits<double>::infinity();
  std::sort(best.begin(), best.end());
  const std::size_t n = best.size();
  return n % 2 ? best[n / 2] : 0.5 * (best[n / 2 - 1] + best[n / 2]);
}

Verdict ReachesVerdict(const std::vector<double>& best, double tol) {
  if (best.empty()) return Verdict::kNotReproduced;
  for (double b : best)
    if (!(b <= tol)) return Verdict::kNotReproduced;
  return Verdict::kReproduced;
}

Verdict FloorVerdict(const std::vector<double>& best, double floor) {
  const double m = MedianBest(best);
  if (!(m == m)) return Verdict::kNotReproduced;  // no cases
  if (m <= 0.1 * floor) return Verdict::kContradicted;
  if (m <= 10.0 * floor) return Verdict::kReproduced;
  return Verdict::kNotReproduced;
}

}  // namespace ncp
