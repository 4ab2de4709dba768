// Scenario parameters: every scenario declares its parameters (name, default, range, help) once;
// the user's "key=value" pairs are parsed against that list, and each violation is a one-line
// error naming scenario.key, the value as given and the rule
// ("laikago_drop.robots = -3: must be a whole number in [1, 1e6]"). Rules that relate two
// parameters (mu_min <= mu_max, ...) stay with the generator, checked after these.
#pragma once

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ncp {

inline constexpr double kNoLimit = std::numeric_limits<double>::infinity();

struct ParamSpec {
  std::string name;
  double default_value = 0.0;
  double min = -kNoLimit, max = kNoLimit;  // inclusive unless the *_open flag is set
  bool min_open = false, max_open = false;
  bool integer = false;
  std::string help;  // meaning, with units where physical
};

// Builders for the common shapes of a spec.
ParamSpec RealParam(std::string name, double default_value, double min, double max,
                    std::string help, bool min_open = false, bool max_open = false);
ParamSpec NonNegativeParam(std::string name, double default_value, std::string help);  // [0, ∞)
ParamSpec PositiveParam(std::string name, double default_value, std::string help);     // (0, ∞)
ParamSpec WholeParam(std::string name, double default_value, double min, double max,
                     std::string help);  // an integer in [min, max]

// A number as the messages and listings print it: %g with a short exponent ("1e6", "5e-5").
std::string FormatParamNumber(double v);
// The range, e.g. "[1, 1e6] integer", "(0, inf)", "[0, 0.5)".
std::string ParamRange(const ParamSpec& s);
// The rule an out-of-range value breaks, e.g. "must be >= 0", "must be a whole number in [1, 1e6]".
std::string ParamRule(const ParamSpec& s);

// Throws ncp::Error "<scenario>.<name> = <text>: <rule>" unless v satisfies the spec; `text` is
// the value as given (empty: v printed).
void CheckParam(const std::string& scenario, const ParamSpec& s, double v,
                const std::string& text = "");

// Defaults of every parameter.
std::map<std::string, double> ParamDefaults(const std::vector<ParamSpec>& specs);

// Every parameter: the given value, else its default. Throws ncp::Error (one line) on an unknown
// key (with the closest known name), a non-number, a non-finite value or a violated rule.
std::map<std::string, double> ParseParams(const std::string& scenario,
                                          const std::vector<ParamSpec>& specs,
                                          const std::map<std::string, std::string>& given);

}  // namespace ncp
