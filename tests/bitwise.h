// Bitwise comparison of vectors and sparse matrices, for I/O round-trip tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "problems/model/contact_problem.h"

namespace ncp::testing {

inline bool SameBits(const double* a, const double* b, Eigen::Index n) {
  return n == 0 || std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(double)) == 0;
}

inline void ExpectSameSparse(const SpMat& a, const SpMat& b, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  ASSERT_EQ(a.nonZeros(), b.nonZeros());
  SpMat ca = a, cb = b;
  ca.makeCompressed();
  cb.makeCompressed();
  EXPECT_TRUE(
      std::equal(ca.outerIndexPtr(), ca.outerIndexPtr() + ca.cols() + 1, cb.outerIndexPtr()));
  EXPECT_TRUE(
      std::equal(ca.innerIndexPtr(), ca.innerIndexPtr() + ca.nonZeros(), cb.innerIndexPtr()));
  EXPECT_TRUE(SameBits(ca.valuePtr(), cb.valuePtr(), ca.nonZeros()));
}

inline void ExpectSameVec(const Vec& a, const Vec& b, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(SameBits(a.data(), b.data(), a.size()));
}

}  // namespace ncp::testing
