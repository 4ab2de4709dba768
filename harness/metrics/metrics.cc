#include "harness/metrics/metrics.h"

#include <cstring>
#include <fmt/format.h>

#include "common/did_you_mean.h"
#include "common/error.h"

namespace ncp {

Metric MetricFromName(const char* name) {
  std::string known;
  const std::vector<std::string> names(kMetricNames.begin(), kMetricNames.end());
  for (std::size_t i = 0; i < kNumMetrics; ++i) {
    if (std::strcmp(kMetricNames[i], name) == 0) return static_cast<Metric>(i);
    known += (known.empty() ? "" : ", ") + std::string(kMetricNames[i]);
  }
  throw Error(
      fmt::format("metric '{}': unknown{} (known: {})", name, DidYouMean(name, names), known));
}

}  // namespace ncp
