#include "common/utf8.h"

#include <gtest/gtest.h>

namespace ncp {
namespace {

// RFC 3629's boundaries: ASCII and 2–4-byte forms accepted; bytes that cannot start a character,
// truncated sequences, overlong forms, surrogates and code points past U+10FFFF refused.
TEST(Utf8, AcceptsWellFormedTextAndRefusesTheRest) {
  for (const char* good : {"", "pgs", "λ ≤ 1e-6", "µs", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"})
    EXPECT_TRUE(ValidUtf8(good)) << good;
  for (const char* bad : {"\xFF\xFE", "\x80", "\xC3", "\xE2\x89", "\xC0\xAF", "\xE0\x80\xAF",
                          "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "a\xC3(b"})
    EXPECT_FALSE(ValidUtf8(bad)) << bad;
}

}  // namespace
}  // namespace ncp
