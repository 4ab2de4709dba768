// Comma-separated option values ("pgs,apgd", "100,200,400").
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace ncp::cli {

// Splits on ',' and drops empty items.
inline std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace ncp::cli
