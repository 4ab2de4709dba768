// Contiguous shares of items of unequal work (subsystems, say) for a team of threads: thread t of
// nt takes the items from the first whose work begins at or after t/nt of the total, so each
// share's work is below total/nt plus the largest item's. The same prefix gives every thread the
// same split without a barrier.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace ncp {

// prefix: the items' work summed before each item (items + 1 entries, non-decreasing, from 0).
// Returns [first, second) of share t, 0 ≤ t < nt; the shares tile [0, items) in order.
inline std::pair<int, int> WorkShare(const std::vector<double>& prefix, int t, int nt) {
  const int items = static_cast<int>(prefix.size()) - 1;
  auto start = [&](int u) {
    if (u >= nt) return items;
    if (u <= 0) return 0;
    const double at = prefix.back() * u / nt;
    return static_cast<int>(std::lower_bound(prefix.begin(), prefix.end() - 1, at) -
                            prefix.begin());
  };
  return {start(t), start(t + 1)};
}

}  // namespace ncp
