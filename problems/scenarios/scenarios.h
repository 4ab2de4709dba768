// Scenario registry: name → generator of a dataset (many problems) from key=value parameters.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "problems/model/contact_problem.h"
#include "problems/scenarios/params.h"

namespace ncp {

struct ScenarioEntry {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;  // what `generate` accepts, with defaults and ranges
  // params: "key" → "value", parsed against `params` by the generator (ParseParams).
  std::function<std::vector<ContactProblem>(const std::map<std::string, std::string>& params,
                                            int count, std::uint64_t seed)>
      generate;
};

const std::vector<ScenarioEntry>& Scenarios();
const ScenarioEntry& FindScenario(const std::string& name);  // throws ncp::Error

}  // namespace ncp
