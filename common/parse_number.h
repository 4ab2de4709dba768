// Numbers typed by users (solver settings, scene and scenario parameters): plain decimal
// notation only, [+-]digits[.digits][(e|E)[+-]digits], finite. strtod alone would also take
// leading blanks, hexadecimal ("0x1p3"), "nan" and "infinity", none of which a user means as a
// setting's value.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ncp {

// True and *out set when `text` is a finite number in plain decimal notation.
inline bool ParseDecimal(const std::string& text, double* out) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto digits = [&] {
    const std::size_t start = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < n && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  if (i != n) return false;
  const double v = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(v)) return false;
  *out = v;
  return true;
}

}  // namespace ncp
