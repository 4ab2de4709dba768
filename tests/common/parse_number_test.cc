// Numbers typed by users: plain decimal notation, finite; a nonzero number that underflows to 0
// is refused (0 is often a setting's reserved value), and -0 reads as 0 (one job key).
#include "common/parse_number.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ncp {
namespace {

TEST(ParseDecimal, PlainDecimalsOnly) {
  double v = -1;
  EXPECT_TRUE(ParseDecimal("1.5e-3", &v));
  EXPECT_EQ(v, 1.5e-3);
  for (const char* bad : {"", " 1", "1 ", "0x1p3", "nan", "inf", "1e", ".", "e5", "1e400", "--1"})
    EXPECT_FALSE(ParseDecimal(bad, &v)) << bad;
}

TEST(ParseDecimal, UnderflowIsRefusedAndZeroHasOneSign) {
  double v = -1;
  for (const char* tiny : {"1e-400", "-2.5e-330", "0.0001e-340"})
    EXPECT_FALSE(ParseDecimal(tiny, &v)) << tiny;
  EXPECT_EQ(DecimalRule("1e-400"),
            "underflows to 0 in double precision: write 0, or a number of larger magnitude");
  EXPECT_EQ(DecimalRule("0." + std::string(400, '0') + "1"),
            "underflows to 0 in double precision: write 0, or a number of larger magnitude");
  EXPECT_EQ(DecimalRule("1e400"), "must be a finite number in decimal notation");
  EXPECT_EQ(DecimalRule("x1e-400"), "must be a finite number in decimal notation");
  EXPECT_TRUE(ParseDecimal("1e-310", &v));  // subnormal, not zero: taken
  EXPECT_GT(v, 0.0);
  for (const char* zero : {"0", "-0", "-0.000", "0e-400", "+0.0e5"}) {
    ASSERT_TRUE(ParseDecimal(zero, &v)) << zero;
    EXPECT_EQ(v, 0.0) << zero;
    EXPECT_FALSE(std::signbit(v)) << zero;
  }
}

}  // namespace
}  // namespace ncp
