#include "harness/metrics/metrics.h"

#include <cstring>
#include <fmt/format.h>

#include "common/error.h"

namespace ncp {

Metric MetricFromName(const char* name) {
  std::string known;
  for (std::size_t i = 0; i < kNumMetrics; ++i) {
    if (std::strcmp(kMetricNames[i], name) == 0) return static_cast<Metric>(i);
    known += (known.empty() ? "" : ", ") + std::string(kMetricNames[i]);
  }
  throw Error(fmt::format("metric '{}': unknown (known: {})", name, known));
}

}  // namespace ncp
