// The non-finite doubles the reports and comparisons use for "not measured" and "unbounded".
#pragma once

#include <limits>

namespace ncp {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace ncp
