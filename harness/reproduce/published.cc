#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.h"
#include "harness/reproduce/protocol.h"

namespace ncp {

double PublishedTable::Get(const std::string& metric, const std::string& column) const {
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == column)
      for (const auto& [m, values] : rows)
        if (m == metric) return values.at(c);
  throw Error(fmt::format("{}: no published value for {} / {}", path, metric, column));
}

PublishedTable ReadPublished(const std::string& id) {
  return ReadPublishedFile(std::string(NCPBENCH_SOURCE_DIR) + "/results/papers/" + id + ".csv");
}

PublishedTable ReadPublishedFile(const std::string& path) {
  PublishedTable t;
  t.path = path;
  std::ifstream f(path);
  if (!f) return t;  // a paper that states its results in words only (Get names the file)
  std::string line;
  bool header = true;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string cell, metric;
    std::getline(ss, metric, ',');
    std::vector<std::string> cells;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (header) {
      t.columns = cells;
      header = false;
      continue;
    }
    std::vector<double> values;
    for (const std::string& c : cells) values.push_back(std::stod(c));
    if (values.size() != t.columns.size())
      throw Error(fmt::format("{}: row '{}': {} values for {} columns", path, metric, values.size(),
                              t.columns.size()));
    t.rows.emplace_back(metric, values);
  }
  return t;
}

}  // namespace ncp
