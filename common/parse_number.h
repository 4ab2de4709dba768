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

// True and *out set when `text` is a finite number in plain decimal notation. A nonzero number
// that underflows to 0 (1e-400) is refused: 0 is often a setting's reserved value ("use the
// rule"), which the user did not write; -0 is read as 0 (one value, one job key).
inline bool ParseDecimal(const std::string& text, double* out) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  bool nonzero = false;  // a mantissa digit other than 0
  auto digits = [&] {
    const std::size_t start = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  auto mantissa_digits = [&] {
    const std::size_t start = i;
    const std::size_t count = digits();
    for (std::size_t k = start; k < i; ++k) nonzero |= text[k] != '0';
    return count;
  };
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = mantissa_digits();
  if (i < n && text[i] == '.') {
    ++i;
    mantissa += mantissa_digits();
  }
  if (mantissa == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  if (i != n) return false;
  const double v = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(v) || (v == 0.0 && nonzero)) return false;
  *out = v == 0.0 ? 0.0 : v;
  return true;
}

// Why ParseDecimal refused `text`, as a rule to print after "<field> = <text>: ".
inline std::string DecimalRule(const std::string& text) {
  // Plain notation with a nonzero digit before any exponent that strtod takes to 0: an
  // underflow (1e-400, or 0.000…1 with 400 zeros), not bad notation.
  const std::size_t e = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, e);
  char* end = nullptr;
  const bool plain =
      !text.empty() && text.find_first_not_of("+-.0123456789eE") == std::string::npos;
  if (plain && mantissa.find_first_of("123456789") != std::string::npos &&
      std::strtod(text.c_str(), &end) == 0.0 && end == text.c_str() + text.size())
    return "underflows to 0 in double precision: write 0, or a number of larger magnitude";
  return "must be a finite number in decimal notation";
}

}  // namespace ncp
