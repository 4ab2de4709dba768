// The metric set of DESIGN.md, computed by the harness evaluator identically for every solver.
#pragma once

#include <array>
#include <cstddef>
#include <limits>

namespace ncp {

enum class Metric : int {
  kRes004 = 0,         // 004 §VII contact residual, Σ_i ‖J_i v̂ − z_i‖ / #constraints
  kNatmapAbs,          // natural-map error ‖F_nat‖ (2-norm over contacts)
  kNatmapRel,          // ‖F_nat‖ / ‖q‖ (Acary et al. 2018)
  kNatmapSiconos,      // ‖F_nat‖ / max(‖q‖, ‖r‖, ‖u‖) (Siconos ≥ 2019)
  kFb,                 // Fischer–Burmeister error ‖φ_FB‖ (2-norm)
  kFbAA,               // −log10 of the mean per-constraint FB error (000 "AA")
  kDyn,                // ‖A v − b − Jᵀλ‖ / max(1, ‖b‖)
  kPrimal,             // max_i ‖J_i v − z_i‖ with z from the strict operator (004:42 θ_p)
  kDual,               // ‖A v − b − Jᵀλ‖_∞ (004:42 θ_d)
  kPenetration,        // max over normal/unilateral rows of max(0, −(J v + e))
  kConeViolation,      // max over contacts of max(0, ‖λ_t‖ − μ λ_n, −λ_n)
  kComplementarity,    // max over contacts/unilateral rows of |λ_n (J_n v + e_n)|
  kDissipation,        // max over contacts of |μ λ_n ‖u_t‖ + λ_t·u_t| (maximal dissipation)
  kCount
};

constexpr std::size_t kNumMetrics = static_cast<std::size_t>(Metric::kCount);

constexpr std::array<const char*, kNumMetrics> kMetricNames = {
    "res004", "natmap",      "natmap_rel",      "natmap_siconos", "fb",
    "fb_aa",  "dyn",         "primal",          "dual",           "penetration",
    "cone_violation", "complementarity", "dissipation"};

struct Metrics {
  std::array<double, kNumMetrics> value;
  Metrics() { value.fill(std::numeric_limits<double>::quiet_NaN()); }
  double& operator[](Metric m) { return value[static_cast<std::size_t>(m)]; }
  double operator[](Metric m) const { return value[static_cast<std::size_t>(m)]; }
};

// Returns the metric named `name`, or throws ncp::Error naming the known ones.
Metric MetricFromName(const char* name);

}  // namespace ncp
