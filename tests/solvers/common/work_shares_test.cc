// WorkShare: contiguous shares that tile the items in order, each below total/nt plus the largest
// item's work (the bound its rule guarantees), equal items split as evenly as whole items allow.
#include "solvers/common/work_shares.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace ncp {
namespace {

std::vector<double> Prefix(const std::vector<double>& work) {
  std::vector<double> p(work.size() + 1, 0.0);
  for (std::size_t i = 0; i < work.size(); ++i) p[i + 1] = p[i] + work[i];
  return p;
}

// Checks tiling and the bound for every team size up to `most`.
void ExpectTiledAndBounded(const std::vector<double>& work, int most) {
  const std::vector<double> p = Prefix(work);
  const double total = p.back();
  const double largest = work.empty() ? 0.0 : *std::max_element(work.begin(), work.end());
  for (int nt = 1; nt <= most; ++nt) {
    int next = 0;
    for (int t = 0; t < nt; ++t) {
      const auto [first, second] = WorkShare(p, t, nt);
      EXPECT_EQ(first, next) << "share " << t << " of " << nt;
      EXPECT_LE(first, second) << "share " << t << " of " << nt;
      EXPECT_LE(p[second] - p[first], total / nt + largest + 1e-9 * total)
          << "share " << t << " of " << nt;
      next = second;
    }
    EXPECT_EQ(next, static_cast<int>(work.size())) << nt << " shares";
  }
}

TEST(WorkShare, TilesTheItemsWithinTheBoundForAnyTeam) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.1, 10.0);
  for (int items : {0, 1, 2, 3, 27, 100}) {
    std::vector<double> work(items);
    for (double& w : work) w = u(rng);
    ExpectTiledAndBounded(work, 9);
  }
  ExpectTiledAndBounded({0.0, 0.0, 5.0, 0.0}, 4);  // items without work
}

TEST(WorkShare, EqualItemsSplitEvenly) {
  const std::vector<double> p = Prefix(std::vector<double>(27, 1.0));
  const auto a = WorkShare(p, 0, 2), b = WorkShare(p, 1, 2);
  EXPECT_EQ(a.second - a.first, 14);  // 13.5 rounded up to whole items at the start
  EXPECT_EQ(b.second - b.first, 13);
  for (int t = 0; t < 3; ++t) {
    const auto s = WorkShare(p, t, 3);
    EXPECT_EQ(s.second - s.first, 9) << t;
  }
}

TEST(WorkShare, HeavyFirstItemsGoToFewerOfThemThanAnIndexSplit) {
  // The lower robots of a pile carry more contacts: an index split (3 items each) gives the
  // first thread 5 of the 8 units of work, the shares give it 4.
  const std::vector<double> p = Prefix({2.0, 2.0, 1.0, 1.0, 1.0, 1.0});
  const auto a = WorkShare(p, 0, 2);
  EXPECT_EQ(a.first, 0);
  EXPECT_EQ(a.second, 2);
  EXPECT_DOUBLE_EQ(p[a.second] - p[a.first], 4.0);
}

}  // namespace
}  // namespace ncp
