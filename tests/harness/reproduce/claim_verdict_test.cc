// Claim checks test the paper's statement against our figures: a claim that a solver cannot get
// below a residual is contradicted when ours does; a ratio or an order the paper states is
// contradicted when ours reverses it. (The run of a protocol:
// tests/harness/reproduce/reproduce_claims_test.cc.)
#include "harness/reproduce/claim_verdict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace ncp {
namespace {

TEST(ClaimVerdict, ReachesAndFloor) {
  EXPECT_EQ(ReachesVerdict({1e-11, 5e-9}, 1e-8), Verdict::kReproduced);
  EXPECT_EQ(ReachesVerdict({1e-11, 2e-8}, 1e-8), Verdict::kNotReproduced);
  EXPECT_EQ(ReachesVerdict({1e-11, NAN}, 1e-8), Verdict::kNotReproduced);
  EXPECT_EQ(FloorVerdict({3e-7, 2e-6, 4e-6}, 1e-6), Verdict::kReproduced);
  EXPECT_EQ(FloorVerdict({1e-10, 1e-9, 1e-5}, 1e-6), Verdict::kContradicted);  // median 1e-9
  EXPECT_EQ(FloorVerdict({1e-4, 1e-3}, 1e-6), Verdict::kNotReproduced);
  EXPECT_STREQ(ToString(Verdict::kContradicted), "contradicted");
}

TEST(ClaimVerdict, Ratio) {
  EXPECT_EQ(RatioVerdict(0.2, 0.1, 3.0).verdict, Verdict::kReproduced);
  EXPECT_EQ(RatioVerdict(0.5, 0.1, 3.0).verdict,
            Verdict::kNotReproduced);  // better than 1, not 0.1
  EXPECT_EQ(RatioVerdict(190.0, 0.1, 3.0).verdict, Verdict::kContradicted);  // the order reversed
  EXPECT_EQ(RatioVerdict(4.0, 2.78, 2.0).verdict, Verdict::kReproduced);
  EXPECT_EQ(RatioVerdict(0.9, 2.78, 2.0).verdict, Verdict::kContradicted);
  EXPECT_EQ(RatioVerdict(1.2, 2.78, 2.0).verdict, Verdict::kNotReproduced);
  EXPECT_EQ(RatioVerdict(NAN, 0.1, 3.0).verdict, Verdict::kNotReproduced);
  EXPECT_EQ(RatioVerdict(INFINITY, 0.1, 3.0).verdict, Verdict::kNotReproduced);
  EXPECT_EQ(RatioVerdict(0.0, 0.1, 3.0).verdict, Verdict::kNotReproduced);
}

// A ratio claim says which of its direction and magnitude held.
TEST(ClaimVerdict, RatioSaysWhatHeld) {
  EXPECT_EQ(RatioVerdict(6.9, 2.2, 2.0).held,
            "direction reproduced, magnitude exceeded (6.9× vs the paper's 2.2×, within 2×)");
  EXPECT_EQ(RatioVerdict(1.05, 2.2, 2.0).held,
            "direction reproduced, magnitude short (1.05× vs the paper's 2.2×, within 2×)");
  EXPECT_EQ(RatioVerdict(0.5, 2.2, 2.0).held,
            "direction reversed (0.5× vs the paper's 2.2×, within 2×)");
  EXPECT_EQ(RatioVerdict(3.0, 2.2, 2.0).held,
            "direction and magnitude reproduced (3× vs the paper's 2.2×, within 2×)");
}

TEST(ClaimVerdict, LinearGrowth) {
  EXPECT_EQ(LinearGrowthVerdict(1.05, 0.995), Verdict::kReproduced);
  EXPECT_EQ(LinearGrowthVerdict(1.05, 0.98), Verdict::kNotReproduced);  // slope fine, fit poor
  EXPECT_EQ(LinearGrowthVerdict(1.3, 0.999), Verdict::kNotReproduced);
  EXPECT_EQ(LinearGrowthVerdict(1.6, 0.999), Verdict::kContradicted);
  EXPECT_EQ(LinearGrowthVerdict(0.5, 0.999), Verdict::kNotReproduced);
}

TEST(ClaimVerdict, Order) {
  EXPECT_EQ(OrderVerdict({3, 2, 1}), Verdict::kReproduced);
  EXPECT_EQ(OrderVerdict({1, 2, 3}), Verdict::kContradicted);
  EXPECT_EQ(OrderVerdict({3, 1, 2}), Verdict::kNotReproduced);
  EXPECT_EQ(OrderVerdict({2, 2}), Verdict::kNotReproduced);  // a tie is no order
  EXPECT_EQ(OrderVerdict({2, NAN}), Verdict::kNotReproduced);
  EXPECT_EQ(OrderVerdict({2}), Verdict::kNotReproduced);
}

TEST(ClaimVerdict, AtMostAndNear) {
  EXPECT_EQ(AtMostVerdict(2e-8, 1e-5), Verdict::kReproduced);
  EXPECT_EQ(AtMostVerdict(2e-5, 1e-5), Verdict::kNotReproduced);
  EXPECT_EQ(AtMostVerdict(NAN, 1e-5), Verdict::kNotReproduced);
  EXPECT_EQ(NearVerdict({4.8, 4.9}, 4.88, 0.3), Verdict::kReproduced);
  EXPECT_EQ(NearVerdict({4.16, 4.9}, 4.88, 0.3), Verdict::kNotReproduced);
  EXPECT_EQ(NearVerdict({}, 4.88, 0.3), Verdict::kNotReproduced);
  EXPECT_EQ(NearVerdict({NAN}, 4.88, 0.3), Verdict::kNotReproduced);
}

// A claim that hangs on a value the paper leaves out: reproduced for the part of the swept range
// where it holds, named as an interval when the holding values are neighbours, listed otherwise.
TEST(ClaimVerdict, RangeNamesWhereTheClaimHolds) {
  const Judged short_of(Verdict::kNotReproduced, "magnitude short");
  const Judged j = RangeVerdict(short_of, "the threshold",
                                {{1e-2, Verdict::kNotReproduced},
                                 {5e-3, Verdict::kReproduced},
                                 {2e-3, Verdict::kReproduced},
                                 {1e-3, Verdict::kNotReproduced}});
  EXPECT_EQ(j.verdict, Verdict::kReproducedForRange);
  EXPECT_EQ(j.held,
            "reproduced for the threshold ∈ [0.002, 0.005] of 0.001–0.01 swept; at the protocol's "
            "value: magnitude short");
  EXPECT_EQ(std::string(ToString(j.verdict)), "reproduced for a range");
  // Holding at two values with a failing one between them: listed, not an interval.
  const Judged gaps = RangeVerdict(
      short_of, "kp",
      {{0, Verdict::kReproduced}, {30, Verdict::kNotReproduced}, {100, Verdict::kReproduced}});
  EXPECT_EQ(gaps.verdict, Verdict::kReproducedForRange);
  EXPECT_NE(gaps.held.find("reproduced for kp at 0, 100 of 0–100 swept"), std::string::npos);
  // Nowhere in the sweep: the protocol's verdict, the sweep named.
  const Judged none = RangeVerdict(Judged(Verdict::kContradicted), "kp",
                                   {{0, Verdict::kContradicted}, {100, Verdict::kNotReproduced}});
  EXPECT_EQ(none.verdict, Verdict::kContradicted);
  EXPECT_EQ(none.held, "at no value of kp over 0–100 swept");
  EXPECT_EQ(RangeVerdict(short_of, "kp", {{0, Verdict::kNotReproduced}}).held,
            "magnitude short; at no value of kp over 0–0 swept");
  // Reproduced at the protocol's value, or not assessed: the sweep does not change it.
  EXPECT_EQ(
      RangeVerdict(Judged(Verdict::kReproduced), "kp", {{0, Verdict::kNotReproduced}}).verdict,
      Verdict::kReproduced);
  EXPECT_EQ(RangeVerdict(Judged(Verdict::kNotAssessed), "kp", {{0, Verdict::kReproduced}}).verdict,
            Verdict::kNotAssessed);
}

TEST(ClaimVerdict, Header) {
  EXPECT_NE(ClaimHeader().find("| claim (paper) | ours | verdict |"), std::string::npos);
}

}  // namespace
}  // namespace ncp
