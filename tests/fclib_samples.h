// The path of one of the fclib collection's files shipped with the suite (NCP_FCLIB_DIR).
#pragma once

#include <string>

namespace ncp::testing {

inline std::string FclibSample(const std::string& file) {
  std::string path = NCP_FCLIB_DIR "/";
  return path += file;
}

}  // namespace ncp::testing
