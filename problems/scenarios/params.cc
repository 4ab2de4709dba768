#include "problems/scenarios/params.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "common/did_you_mean.h"
#include "common/error.h"
#include "common/parse_number.h"

namespace ncp {

ParamSpec RealParam(std::string name, double default_value, double min, double max,
                    std::string help, bool min_open, bool max_open) {
  ParamSpec s;
  s.name = std::move(name);
  s.default_value = default_value;
  s.min = min, s.max = max;
  s.min_open = min_open, s.max_open = max_open;
  s.help = std::move(help);
  return s;
}

ParamSpec NonNegativeParam(std::string name, double default_value, std::string help) {
  return RealParam(std::move(name), default_value, 0.0, kNoLimit, std::move(help));
}

ParamSpec PositiveParam(std::string name, double default_value, std::string help) {
  return RealParam(std::move(name), default_value, 0.0, kNoLimit, std::move(help), true);
}

ParamSpec WholeParam(std::string name, double default_value, double min, double max,
                     std::string help) {
  ParamSpec s = RealParam(std::move(name), default_value, min, max, std::move(help));
  s.integer = true;
  return s;
}

std::string FormatParamNumber(double v) {
  // Round bounds such as 1e4 and 2e5 read better with an exponent than as 10000 and 200000.
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) >= 1e4 && std::abs(v) < 1e15 &&
      std::fmod(v, 1000.0) == 0.0) {
    const int exponent = static_cast<int>(std::floor(std::log10(std::abs(v))));
    return fmt::format("{:g}e{}", v / std::pow(10.0, exponent), exponent);
  }
  std::string s = fmt::format("{:g}", v);
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1), sign;
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
    if (exponent[0] == '-') sign = "-";
    exponent.erase(0, 1);
  }
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + sign + exponent;
}

namespace {

std::string Interval(const ParamSpec& s) {
  return fmt::format("{}{}, {}{}", s.min_open || std::isinf(s.min) ? "(" : "[",
                     FormatParamNumber(s.min), FormatParamNumber(s.max),
                     s.max_open || std::isinf(s.max) ? ")" : "]");
}

bool Satisfies(const ParamSpec& s, double v) {
  return std::isfinite(v) && (s.min_open ? v > s.min : v >= s.min) &&
         (s.max_open ? v < s.max : v <= s.max) && (!s.integer || v == std::floor(v));
}

}  // namespace

std::string ParamRange(const ParamSpec& s) { return Interval(s) + (s.integer ? " integer" : ""); }

std::string ParamRule(const ParamSpec& s) {
  const bool lower = std::isfinite(s.min), upper = std::isfinite(s.max);
  if (s.integer) {
    if (lower && upper) return "must be a whole number in " + Interval(s);
    if (lower)
      return fmt::format("must be a whole number {} {}",
                         s.min_open ? ">" : ">=", FormatParamNumber(s.min));
    return "must be a whole number";
  }
  if (lower && upper) return "must be in " + Interval(s);
  if (lower) return fmt::format("must be {} {}", s.min_open ? ">" : ">=", FormatParamNumber(s.min));
  if (upper) return fmt::format("must be {} {}", s.max_open ? "<" : "<=", FormatParamNumber(s.max));
  return "must be a finite number";
}

void CheckParam(const std::string& scenario, const ParamSpec& s, double v,
                const std::string& text) {
  if (!Satisfies(s, v))
    throw Error(fmt::format("{}.{} = {}: {}", scenario, s.name,
                            text.empty() ? FormatParamNumber(v) : text, ParamRule(s)));
}

std::map<std::string, double> ParamDefaults(const std::vector<ParamSpec>& specs) {
  std::map<std::string, double> out;
  for (const ParamSpec& s : specs) out[s.name] = s.default_value;
  return out;
}

std::map<std::string, double> ParseParams(const std::string& scenario,
                                          const std::vector<ParamSpec>& specs,
                                          const std::map<std::string, std::string>& given) {
  std::map<std::string, double> out = ParamDefaults(specs);
  for (const auto& [key, text] : given) {
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& s : specs)
      if (s.name == key) spec = &s;
    if (!spec) {
      std::vector<std::string> names;
      std::string known;
      for (const ParamSpec& s : specs) {
        names.push_back(s.name);
        known += (known.empty() ? "" : ", ") + s.name;
      }
      throw Error(fmt::format("{}.{}: unknown parameter{} (known: {})", scenario, key,
                              DidYouMean(key, names), known.empty() ? "none" : known));
    }
    double v = 0.0;
    if (!ParseDecimal(text, &v))
      throw Error(fmt::format("{}.{} = {}: {}", scenario, key, text, DecimalRule(text)));
    CheckParam(scenario, *spec, v, text);
    out[key] = v;
  }
  return out;
}

}  // namespace ncp
