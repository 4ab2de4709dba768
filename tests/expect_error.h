// Expects a call to throw ncp::Error with a one-line message containing every fragment.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"

namespace ncp::testing {

template <typename Fn>
void ExpectError(Fn fn, const std::vector<std::string>& fragments) {
  try {
    fn();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const std::string& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

}  // namespace ncp::testing
