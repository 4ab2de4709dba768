// Least-squares line y = slope x + intercept with its R², for the scalability protocols (on
// log10 values for a power-law exponent, on plain values for the papers' linear fits).
#pragma once

#include <vector>

namespace ncp {

struct LineFit {
  double slope = 0.0, intercept = 0.0, r2 = 0.0;
  bool valid = false;  // false with fewer than two distinct x
};

LineFit FitLine(const std::vector<double>& x, const std::vector<double>& y);
// FitLine on log10 x, log10 y: the exponent of y ∝ x^slope.
LineFit FitPowerLaw(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace ncp
