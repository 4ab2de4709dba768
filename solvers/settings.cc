#include "solvers/settings.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "common/error.h"
#include "common/parse_number.h"

namespace ncp {
namespace {

std::string RangeRule(const SettingSpec& s) {
  if (!s.choices.empty()) {
    std::string r = "must be one of";
    for (const auto& c : s.choices) r += " " + c;
    return r;
  }
  return fmt::format("must be {}in {}{}, {}{}", s.integer ? "an integer " : "",
                     s.min_open ? "(" : "[", s.min, s.max, s.max_open ? ")" : "]");
}

double ParseValue(const std::string& solver, const SettingSpec& s, const std::string& text) {
  if (!s.choices.empty()) {
    for (std::size_t i = 0; i < s.choices.size(); ++i)
      if (s.choices[i] == text) return static_cast<double>(i);
    throw Error(fmt::format("{}.{} = {}: {}", solver, s.name, text, RangeRule(s)));
  }
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  double v = 0.0;
  if (!ParseDecimal(text, &v))
    throw Error(fmt::format("{}.{} = {}: {}", solver, s.name, text, DecimalRule(text)));
  const bool ok = (s.min_open ? v > s.min : v >= s.min) && (s.max_open ? v < s.max : v <= s.max) &&
                  (!s.integer || v == std::floor(v));
  if (!ok) throw Error(fmt::format("{}.{} = {}: {}", solver, s.name, text, RangeRule(s)));
  return v;
}

}  // namespace

Settings Settings::Parse(const std::string& solver, const std::vector<SettingSpec>& specs,
                         const std::map<std::string, std::string>& given) {
  Settings s;
  s.solver_ = solver;
  s.specs_ = specs;
  for (const SettingSpec& spec : specs) s.values_[spec.name] = spec.default_value;
  for (const auto& [key, text] : given) {
    const SettingSpec* spec = nullptr;
    for (const SettingSpec& c : specs)
      if (c.name == key) spec = &c;
    if (!spec) {
      std::string known;
      for (const SettingSpec& c : specs) known += (known.empty() ? "" : ", ") + c.name;
      throw Error(fmt::format("{}.{}: unknown setting (known: {})", solver, key,
                              known.empty() ? "none" : known));
    }
    s.values_[key] = ParseValue(solver, *spec, text);
  }
  return s;
}

double Settings::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw Error(fmt::format("{}.{}: no such setting", solver_, name));
  return it->second;
}

int Settings::ChoiceIndex(const std::string& name) const {
  const double v = Get(name);
  for (const SettingSpec& s : specs_) {
    if (s.name != name) continue;
    if (s.choices.empty()) throw Error(fmt::format("{}.{}: not a choice setting", solver_, name));
    if (!(v >= 0 && v < static_cast<double>(s.choices.size())) || v != std::floor(v))
      throw Error(fmt::format("{}.{} = {}: not the index of one of its {} choices", solver_, name,
                              v, s.choices.size()));
    return static_cast<int>(v);
  }
  throw Error(fmt::format("{}.{}: no such setting", solver_, name));
}

std::string Settings::ToString() const {
  std::string out;
  for (const SettingSpec& s : specs_) {
    const double v = values_.at(s.name);
    if (!out.empty()) out += ";";
    out += s.name + "=" +
           (s.choices.empty() ? fmt::format("{}", v) : s.choices[static_cast<std::size_t>(v)]);
  }
  return out;
}

std::map<std::string, std::string> ParseKeyValues(const std::string& text) {
  std::map<std::string, std::string> out;
  if (text.empty()) return out;
  std::size_t pos = 0;
  int number = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find_first_of(",;", pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    // Dropped, an empty item would hide a typo ("a=1,,b=2", a trailing comma).
    if (item.empty())
      throw Error(
          fmt::format("settings '{}': item {} is empty: separate key=value items by single "
                      "commas or semicolons",
                      text, number));
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(fmt::format("setting '{}': must be key=value", item));
    // The last of two would win without a word (`-p cubes=1,cubes=2` ran cubes=2).
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (const auto [it, added] = out.emplace(key, value); !added)
      throw Error(
          fmt::format("'{}' given twice ({} and {}): give it once", key, it->second, value));
  }
  return out;
}

}  // namespace ncp
