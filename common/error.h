// One exception type for bad input: its message is a single line naming the field, the value
// and the rule. The CLI prints it and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>

namespace ncp {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ncp
