#include "harness/reproduce/claim_verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "harness/markdown.h"

namespace ncp {

const char* ToString(Verdict v) {
  switch (v) {
    case Verdict::kReproduced:
      return "reproduced";
    case Verdict::kNotReproduced:
      return "not reproduced";
    case Verdict::kContradicted:
      return "contradicted";
    case Verdict::kNotAssessed:
      return "not assessed";
    case Verdict::kReproducedForRange:
      return "reproduced for a range";
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

Judged RatioVerdict(double ours, double claimed, double factor) {
  if (!(std::isfinite(ours) && ours > 0 && claimed > 0))
    return {Verdict::kNotReproduced, "no finite positive ratio measured"};
  const std::string figures =
      fmt::format("{:.3g}× vs the paper's {:.3g}×, within {:g}×", ours, claimed, factor);
  if (ours >= claimed / factor && ours <= claimed * factor)
    return {Verdict::kReproduced, "direction and magnitude reproduced (" + figures + ")"};
  if ((claimed < 1 && ours > 1) || (claimed > 1 && ours < 1))
    return {Verdict::kContradicted, "direction reversed (" + figures + ")"};
  // Same side of 1, outside the factor: further from 1 than the paper ("exceeded") or closer.
  const bool further = std::abs(std::log(ours)) > std::abs(std::log(claimed));
  return {Verdict::kNotReproduced, fmt::format("direction reproduced, magnitude {} ({})",
                                               further ? "exceeded" : "short", figures)};
}

Judged RangeVerdict(const Judged& at_protocol, const std::string& unknown,
                    std::vector<AtValue> sweep) {
  if (at_protocol.verdict == Verdict::kReproduced || at_protocol.verdict == Verdict::kNotAssessed ||
      sweep.empty())
    return at_protocol;
  std::sort(sweep.begin(), sweep.end(),
            [](const AtValue& a, const AtValue& b) { return a.value < b.value; });
  // The holding values, as one interval where they are neighbours in the sweep, else listed.
  std::size_t first = sweep.size(), last = 0, held = 0;
  for (std::size_t i = 0; i < sweep.size(); ++i)
    if (sweep[i].verdict == Verdict::kReproduced) first = std::min(first, i), last = i, ++held;
  const std::string swept = fmt::format("{:g}–{:g} swept", sweep.front().value, sweep.back().value);
  const std::string before =
      at_protocol.held.empty() ? ToString(at_protocol.verdict) : at_protocol.held;
  if (held == 0)
    return {at_protocol.verdict,
            fmt::format("{}at no value of {} over {}",
                        at_protocol.held.empty() ? "" : at_protocol.held + "; ", unknown, swept)};
  std::string where;
  if (held == last - first + 1) {
    where = first == last ? fmt::format("= {:g}", sweep[first].value)
                          : fmt::format("∈ [{:g}, {:g}]", sweep[first].value, sweep[last].value);
  } else {
    for (const AtValue& a : sweep)
      if (a.verdict == Verdict::kReproduced)
        where += fmt::format("{}{:g}", where.empty() ? "at " : ", ", a.value);
  }
  return {Verdict::kReproducedForRange,
          fmt::format("reproduced for {} {} of {}; at the protocol's value: {}", unknown, where,
                      swept, before)};
}

Verdict OrderVerdict(const std::vector<double>& v) {
  if (v.size() < 2) return Verdict::kNotReproduced;
  bool down = true, up = true;
  for (std::size_t i = 1; i < v.size(); ++i) {
    down &= v[i - 1] > v[i];  // false on NaN
    up &= v[i - 1] < v[i];
  }
  return down ? Verdict::kReproduced : up ? Verdict::kContradicted : Verdict::kNotReproduced;
}

Verdict LinearGrowthVerdict(double slope, double r2) {
  if (slope >= 1.5) return Verdict::kContradicted;
  if (slope >= 0.8 && slope <= 1.2 && r2 >= 0.99) return Verdict::kReproduced;
  return Verdict::kNotReproduced;
}

Verdict AtMostVerdict(double ours, double bound) {
  return ours <= bound ? Verdict::kReproduced : Verdict::kNotReproduced;
}

Verdict NearVerdict(const std::vector<double>& ours, double claimed, double tol) {
  if (ours.empty()) return Verdict::kNotReproduced;
  for (double x : ours)
    if (!(std::abs(x - claimed) <= tol)) return Verdict::kNotReproduced;
  return Verdict::kReproduced;
}

std::string ClaimHeader() {
  // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, falsely) on "\n" + temporary.
  std::string md = "\n";
  md += markdown::Heading(2, "The paper's claims against ours");
  md += markdown::HeaderOf({"claim (paper)", "ours", "verdict"}, "lll");
  return md;
}

}  // namespace ncp
