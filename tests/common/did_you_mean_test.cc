// Unknown names get the closest known one when it is close enough to be a typo.
#include "common/did_you_mean.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "solvers/registry.h"

namespace ncp {
namespace {

TEST(DidYouMean, ClosestNameWithinTypoDistance) {
  EXPECT_EQ(EditDistance("pgss", "pgs"), 1);
  EXPECT_EQ(EditDistance("canal", "cnaal"), 2);
  const std::vector<std::string> known = {"pgs", "pj", "apgd", "local-newton"};
  EXPECT_EQ(DidYouMean("pgss", known), "; did you mean 'pgs'?");
  EXPECT_EQ(DidYouMean("local_newton", known), "; did you mean 'local-newton'?");
  EXPECT_EQ(DidYouMean("banana", known), "");  // too far from every name: no guess
}

TEST(DidYouMean, UnknownSolverNamesTheClosest) {
  try {
    FindSolver("local-newtn");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'local-newton'?"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ncp
