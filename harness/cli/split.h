// Comma-separated option values ("pgs,apgd", "100,200,400").
#pragma once

#include <string>
#include <vector>

#include "common/error.h"

namespace ncp::cli {

// Splits on ','; "" is the empty list. An empty item ("pgs,,apgd", "100,") is refused, naming
// `field`: dropping it would run something other than what was typed.
inline std::vector<std::string> SplitComma(const std::string& s, const std::string& field) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t end = s.find(',', pos);
    out.push_back(s.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (out.back().empty())
      throw Error(field + " = " + s + ": item " + std::to_string(out.size()) +
                  " is empty: separate the items by single commas");
    if (end == std::string::npos) return out;
    pos = end + 1;
  }
}

}  // namespace ncp::cli
