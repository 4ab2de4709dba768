#include "harness/reproduce/fit.h"

#include <cmath>
#include <cstddef>

namespace ncp {

LineFit FitLine(const std::vector<double>& x, const std::vector<double>& y) {
  LineFit f;
  const std::size_t n = x.size();
  if (n < 2 || y.size() != n) return f;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0)) return f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double sse = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = y[i] - (f.slope * x[i] + f.intercept);
    sse += e * e;
  }
  f.r2 = syy > 0 ? 1.0 - sse / syy : 1.0;
  f.valid = true;
  return f;
}

LineFit FitPowerLaw(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
    if (x[i] > 0 && y[i] > 0) lx.push_back(std::log10(x[i])), ly.push_back(std::log10(y[i]));
  return FitLine(lx, ly);
}

}  // namespace ncp
