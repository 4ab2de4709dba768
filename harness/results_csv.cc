#include "harness/results_csv.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "common/csv.h"
#include "harness/results_columns.h"

namespace ncp {
namespace {

// Shortest text that reads back to the same double; "nan" and "inf" as pandas reads them.
std::string Number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}

}  // namespace

std::string RunsCsv(const std::vector<RunRecord>& rows) {
  std::vector<std::string> header;
  for (const auto& f : columns::kStringFields) header.push_back(f.name);
  header.push_back("status");
  for (const auto& f : columns::kIntFields) header.push_back(f.name);
  for (const auto& f : columns::kDoubleFields) header.push_back(f.name);
  for (const char* m : kMetricNames) header.push_back(std::string("final_") + m);
  for (const auto& f : columns::kDescriptorInts) header.push_back(f.name);
  for (const auto& f : columns::kDescriptorDoubles) header.push_back(f.name);
  std::string out = fmt::format("{}\n", fmt::join(header, ","));
  for (const RunRecord& r : rows) {
    std::vector<std::string> row;
    for (const auto& f : columns::kStringFields) row.push_back(CsvField(r.*f.member));
    row.push_back(ToString(r.status));
    for (const auto& f : columns::kIntFields) row.push_back(std::to_string(r.*f.member));
    for (const auto& f : columns::kDoubleFields) row.push_back(Number(r.*f.member));
    for (double v : r.final_metrics.value) row.push_back(Number(v));
    for (const auto& f : columns::kDescriptorInts)
      row.push_back(std::to_string(r.descriptors.*f.member));
    for (const auto& f : columns::kDescriptorDoubles)
      row.push_back(Number(r.descriptors.*f.member));
    out += fmt::format("{}\n", fmt::join(row, ","));
  }
  return out;
}

}  // namespace ncp
