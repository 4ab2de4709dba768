// One exception type for bad input: its message is a single line naming the field, the value
// and the rule. The CLI prints it and exits non-zero.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace ncp {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(OneLine(what)) {}

  // Several errors at once, one line each (every invalid file of a collection).
  static Error Lines(const std::vector<std::string>& lines) {
    std::string joined;
    for (const std::string& line : lines) joined += (joined.empty() ? "" : "\n") + OneLine(line);
    return Error(Joined{}, joined);
  }

 private:
  struct Joined {};
  Error(Joined, const std::string& joined) : std::runtime_error(joined) {}

  // Messages quote what the user gave (a value, a file name, a file's own strings), which may
  // hold line breaks or other control characters: escaped, the message stays one line.
  static std::string OneLine(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (u < 0x20 || u == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", u);
        out += hex;
      } else {
        out += c;
      }
    }
    return out;
  }
};

// The user asked to stop (Ctrl-C in Python): not a failure of the job that was running, so the
// runner lets it through instead of recording that job as failed.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace ncp
