// A solver's settings declared once: the members of a struct carry the defaults (their
// initializers) and one SettingsTable binds each member to its name, range and help. The specs
// that `ncpbench list` prints and Settings::Parse checks, the struct filled from parsed values and
// the values read back from a struct all come from that table, so a default cannot drift from
// its spec (the concern of OSQP's settings and Ceres' Solver::Options).
//
//   struct PjSettings { double omega = 0.3; };
//   const SettingsTable<PjSettings>& PjTable() {
//     static const SettingsTable<PjSettings> t = SettingsTable<PjSettings>().Real(
//         &PjSettings::omega, "omega", {.min = 0, .max = 2, .min_open = true}, "relaxation");
//     return t;
//   }
#pragma once

#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "solvers/settings.h"

namespace ncp {

// The range of a numeric setting: [min, max], an end open when its flag is set.
struct Range {
  double min = 0.0, max = 0.0;
  bool min_open = false, max_open = false;
};

template <typename S>
class SettingsTable {
 public:
  // `defaults`: S{} unless one struct serves several solvers with other defaults.
  explicit SettingsTable(S defaults = S{}) : defaults_(std::move(defaults)) {}

  SettingsTable& Real(double S::*m, std::string name, Range r, std::string help) {
    return Add(Numeric(std::move(name), defaults_.*m, r, false, std::move(help)), m);
  }
  SettingsTable& Int(int S::*m, std::string name, Range r, std::string help) {
    return Add(Numeric(std::move(name), defaults_.*m, r, true, std::move(help)), m);
  }
  // 0 or 1.
  SettingsTable& Flag(bool S::*m, std::string name, std::string help) {
    return Add(Numeric(std::move(name), defaults_.*m ? 1.0 : 0.0, {.min = 0.0, .max = 1.0}, true,
                       std::move(help)),
               m);
  }
  // One of kNames (see ChoiceNames), stored as its enumerator.
  template <const auto& kNames>
  SettingsTable& Choice(ChoiceEnum<kNames> S::*m, std::string name, std::string help) {
    return Add(ChoiceSpec<kNames>(std::move(name), defaults_.*m, std::move(help)), m);
  }

  const std::vector<SettingSpec>& Specs() const { return specs_; }
  // The struct with every member from `s` (parsed against Specs()).
  S From(const Settings& s) const {
    S out = defaults_;
    for (std::size_t i = 0; i < fields_.size(); ++i) fields_[i].set(out, s.Get(specs_[i].name));
    return out;
  }
  // Each setting's value in `x`, as Settings::Get gives it (choices by index).
  std::map<std::string, double> Values(const S& x) const {
    std::map<std::string, double> out;
    for (std::size_t i = 0; i < fields_.size(); ++i) out[specs_[i].name] = fields_[i].get(x);
    return out;
  }
  // For SolverEntry::read_back: the values of the struct made from `s`.
  std::function<std::map<std::string, double>(const Settings&)> ReadBack() const {
    return [this](const Settings& s) { return Values(From(s)); };
  }

 private:
  struct Field {
    std::function<void(S&, double)> set;
    std::function<double(const S&)> get;
  };
  static SettingSpec Numeric(std::string name, double default_value, Range r, bool integer,
                             std::string help) {
    return {.name = std::move(name),
            .default_value = default_value,
            .min = r.min,
            .max = r.max,
            .min_open = r.min_open,
            .max_open = r.max_open,
            .integer = integer,
            .help = std::move(help)};
  }
  template <typename T>
  SettingsTable& Add(SettingSpec spec, T S::*m) {
    specs_.push_back(std::move(spec));
    fields_.push_back({[m](S& s, double x) {
                         if constexpr (std::is_same_v<T, bool>)
                           s.*m = x != 0.0;
                         else if constexpr (std::is_enum_v<T>)
                           s.*m = static_cast<T>(static_cast<int>(x));
                         else
                           s.*m = static_cast<T>(x);
                       },
                       [m](const S& s) {
                         if constexpr (std::is_enum_v<T>)
                           return static_cast<double>(static_cast<int>(s.*m));
                         else
                           return static_cast<double>(s.*m);
                       }});
    return *this;
  }
  S defaults_;
  std::vector<SettingSpec> specs_;
  std::vector<Field> fields_;
};

}  // namespace ncp
