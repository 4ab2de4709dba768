// The path of one of the fclib collection's files shipped with the suite (NCP_FCLIB_DIR).
#pragma once

#include <string>

namespace ncp::testing {

inline std::string FclibSample(const std::string& file) {
  return std::string(NCP_FCLIB_DIR) + "/" + file;
}

}  // namespace ncp::testing
