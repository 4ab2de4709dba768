// "did you mean 'pgs'?" for an unknown name: the closest known name by edit distance, when it is
// close enough to be a typo (at most 2 edits, or a third of the name's length).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace ncp {

inline int EditDistance(const std::string& a, const std::string& b) {
  std::vector<int> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// "; did you mean 'x'?" or "" when no known name is that close.
inline std::string DidYouMean(const std::string& name, const std::vector<std::string>& known) {
  const int limit = std::max<int>(2, static_cast<int>(name.size()) / 3);
  std::string best;
  int best_distance = limit + 1;
  for (const std::string& k : known) {
    const int d = EditDistance(name, k);
    if (d < best_distance) best_distance = d, best = k;
  }
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

}  // namespace ncp
