// CSV as RFC 4180 writes it, for every CSV the suite writes (results export, claims ledger).
#pragma once

#include <string>

namespace ncp {

// `s` as one field: quoted when it holds a comma, a quote or a line break, its quotes doubled.
inline std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace ncp
