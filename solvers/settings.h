// Solver settings: each solver declares its settings (name, default, range, help); a user's
// "key=value" pairs are parsed and validated against that list, with errors naming the field,
// the value and the rule ("pgs.omega = 2.5: must be in (0, 2]").
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ncp {

struct SettingSpec {
  std::string name;
  double default_value = 0.0;
  double min = 0.0, max = 0.0;  // inclusive bounds unless the *_open flag is set
  bool min_open = false, max_open = false;
  bool integer = false;
  std::vector<std::string> choices;  // non-empty: value is the index of a choice
  std::string help;
};

// One choice of a choice setting: its enumerator and the name a user writes. A setting's choices
// are listed in enumerator order (the stored value is the index), so each name sits next to the
// enumerator it stands for and ChoiceSpec refuses, at compile time, a list out of that order.
template <typename E>
struct ChoiceName {
  using Enum = E;
  E value;
  const char* name;
};

// ChoiceNames<E>({{E::kA, "a"}, {E::kB, "b"}}): the array ChoiceSpec reads.
template <typename E, std::size_t N>
constexpr std::array<ChoiceName<E>, N> ChoiceNames(const ChoiceName<E> (&names)[N]) {
  std::array<ChoiceName<E>, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = names[i];
  return out;
}

template <typename E, std::size_t N>
constexpr bool InEnumOrder(const std::array<ChoiceName<E>, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (static_cast<std::size_t>(names[i].value) != i || names[i].name == nullptr) return false;
  return true;
}

template <const auto& kNames>
using ChoiceEnum = typename std::remove_cvref_t<decltype(kNames)>::value_type::Enum;

// A choice setting over the names of kNames (a constexpr array from ChoiceNames, with static
// storage), defaulting to `default_choice`.
template <const auto& kNames>
SettingSpec ChoiceSpec(std::string name, ChoiceEnum<kNames> default_choice, std::string help) {
  static_assert(InEnumOrder(kNames), "choice names must list the enumerators in order 0, 1, ...");
  SettingSpec s{.name = std::move(name),
                .default_value = static_cast<double>(static_cast<int>(default_choice)),
                .help = std::move(help)};
  for (const auto& c : kNames) s.choices.emplace_back(c.name);
  return s;
}

class Settings {
 public:
  // Throws ncp::Error on an unknown key, a malformed number or a violated rule.
  static Settings Parse(const std::string& solver, const std::vector<SettingSpec>& specs,
                        const std::map<std::string, std::string>& given);
  double Get(const std::string& name) const;
  int GetInt(const std::string& name) const { return static_cast<int>(Get(name)); }
  bool GetBool(const std::string& name) const { return Get(name) != 0.0; }
  // The value of a choice setting as its enum (enumerators in the order of the choices); throws
  // ncp::Error when `name` has no choices or its value is not one of them.
  template <typename E>
  E Choice(const std::string& name) const {
    static_assert(std::is_enum_v<E>);
    return static_cast<E>(ChoiceIndex(name));
  }
  int ChoiceIndex(const std::string& name) const;
  // "key=value;..." over every setting, defaults included, choices by name.
  std::string ToString() const;

 private:
  std::string solver_;
  std::vector<SettingSpec> specs_;
  std::map<std::string, double> values_;
};

// Parses "a=1,b=2" (or ';'-separated) into pairs; "" is none. Throws ncp::Error on a
// malformed or empty item and on a key given twice.
std::map<std::string, std::string> ParseKeyValues(const std::string& text);

}  // namespace ncp
