// Solver settings: each solver declares its settings (name, default, range, help); a user's
// "key=value" pairs are parsed and validated against that list, with errors naming the field,
// the value and the rule ("pgs.omega = 2.5: must be in (0, 2]").
#pragma once

#include <map>
#include <string>
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

class Settings {
 public:
  // Throws ncp::Error on an unknown key, a malformed number or a violated rule.
  static Settings Parse(const std::string& solver, const std::vector<SettingSpec>& specs,
                        const std::map<std::string, std::string>& given);
  double Get(const std::string& name) const;
  int GetInt(const std::string& name) const { return static_cast<int>(Get(name)); }
  bool GetBool(const std::string& name) const { return Get(name) != 0.0; }
  // "key=value;..." over every setting, defaults included, choices by name.
  std::string ToString() const;

 private:
  std::string solver_;
  std::vector<SettingSpec> specs_;
  std::map<std::string, double> values_;
};

// Parses "a=1,b=2" (or ';'-separated) into pairs; throws ncp::Error on a malformed item.
std::map<std::string, std::string> ParseKeyValues(const std::string& text);

}  // namespace ncp
