// The metric set of DESIGN.md, computed by the harness evaluator identically for every solver.
#pragma once

#include <array>
#include <cstddef>
#include <limits>

namespace ncp {

enum class Metric : int {
  kRes004 = 0,     // 004 §VII contact residual, Σ_i ‖J_i v̂ − z_i‖ / #constraints
  kNatmapAbs,      // natural-map error ‖F_nat‖ (2-norm over the constraints)
  kNatmapRel,      // ‖F_nat‖ / ‖q‖ (Acary et al. 2018)
  kNatmapSiconos,  // ‖F_nat‖ / max(‖q‖, ‖r‖, ‖u‖) (Siconos ≥ 2019)
  kFb,             // Fischer–Burmeister error ‖φ_FB‖ (2-norm)
  kFbAA,           // mean over constraints of −log10 FB error (000 "AA")
  kDyn,            // ‖A v − b − Jᵀλ‖ / max(1, ‖b‖)
  kPrimal,         // max_i ‖J_i v − z_i‖ with z from the strict operator (004:42 θ_p)
  kDual,           // ‖A v − b − Jᵀλ‖_∞ (004:42 θ_d)
  kPenetration,    // max over normal/unilateral rows of max(0, −(J v + e))
  kConeViolation,  // max(0, ‖λ_t‖ − μ λ_n, −λ_n) over contacts, −λ unilateral, joint box
  kComplementarity,  // max over contacts/unilateral rows of |λ_n (J_n v + e_n)|
  kDissipation,      // max of |μ max(λ_n, 0) ‖u_t‖ + λ_t·u_t| (maximal dissipation)
  kCount
};

constexpr std::size_t kNumMetrics = static_cast<std::size_t>(Metric::kCount);

constexpr std::array<const char*, kNumMetrics> kMetricNames = {"res004",
                                                               "natmap",
                                                               "natmap_rel",
                                                               "natmap_siconos",
                                                               "fb",
                                                               "fb_aa",
                                                               "dyn",
                                                               "primal",
                                                               "dual",
                                                               "penetration",
                                                               "cone_violation",
                                                               "complementarity",
                                                               "dissipation"};

// What each metric measures, with its unit and source, for `ncpbench list metrics` and reports.
constexpr std::array<const char*, kNumMetrics> kMetricMeanings = {
    "mean per-constraint distance of J_i v̂ to the feasible set S_i, velocity units (Lee et al., "
    "\"Variations of Augmented Lagrangian for Robotic Multi-Contact Simulation\", paper 004 §VII)",
    "natural-map error ‖r − Π_K(r − (u + μ‖u_t‖e_n))‖ over the contacts and each other row's law, "
    "force units where W is of order 1: it mixes r's rows and u's (Acary, Brémond & Huber 2018)",
    "natural-map error divided by ‖q‖, relative, not scale-free where W is far from order 1 (the "
    "fclib campaign of Acary et al. 2018)",
    "natural-map error divided by max(‖q‖, ‖r‖, ‖u‖), dimensionless (Siconos Numerics since 2019)",
    "Fischer–Burmeister error ‖φ_FB‖, 2-norm over the rows",
    "mean over the constraints of −log10 of each one's Fischer–Burmeister error (floored at "
    "1e-16), digits (paper 000's \"AA\"; "
    "higher is better)",
    "dynamics residual ‖A v − b − Jᵀλ‖ / max(1, ‖b‖), dimensionless (global form only)",
    "primal residual max_i ‖J_i v − z_i‖ with z from the strict operator (paper 004 eq. 42, θ_p)",
    "dual residual ‖A v − b − Jᵀλ‖_∞, force units (paper 004 eq. 42, θ_d)",
    "largest negative normal velocity max(0, −(J_n v + e_n)) over normal and unilateral rows",
    "largest friction-cone violation max(0, ‖λ_t‖ − μ λ_n, −λ_n) over contacts, also −λ over "
    "unilateral rows and |λ_t| − μ|λ_n| over joint friction",
    "largest |λ_n (J_n v + e_n)| over contacts and unilateral rows",
    "largest |μ max(λ_n, 0) ‖u_t‖ + λ_t·u_t| over contacts and joint friction (maximal "
    "dissipation)"};

struct Metrics {
  std::array<double, kNumMetrics> value;
  Metrics() { value.fill(std::numeric_limits<double>::quiet_NaN()); }
  double& operator[](Metric m) { return value[static_cast<std::size_t>(m)]; }
  double operator[](Metric m) const { return value[static_cast<std::size_t>(m)]; }
};

// Returns the metric named `name`, or throws ncp::Error naming the known ones.
Metric MetricFromName(const char* name);

}  // namespace ncp
