// Lookup by name in the suite's registries (solvers, scenarios, scenes, reproduction protocols),
// with one error form for an unknown name:
//   "<what> 'x': unknown; did you mean 'y'? (known: a, b, ...)"
// An entry's name is its `name` member, or its `id` where the registry is keyed by ids.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/did_you_mean.h"
#include "common/error.h"

namespace ncp {

template <typename Entry>
const std::string& EntryName(const Entry& e) {
  if constexpr (requires { e.name; })
    return e.name;
  else
    return e.id;
}

// The entry called `name`, or nullptr.
template <typename Entry>
const Entry* FindOrNull(const std::vector<Entry>& entries, std::string_view name) {
  for (const Entry& e : entries)
    if (EntryName(e) == name) return &e;
  return nullptr;
}

// "<what> 'name': unknown[; did you mean 'y'?] (known: ...)": the entries' names in registry
// order, then `also_known` (names accepted besides the entries, e.g. another registry's).
template <typename Entry>
std::string UnknownNameMessage(const std::vector<Entry>& entries, std::string_view name,
                               std::string_view what,
                               const std::vector<std::string>& also_known = {}) {
  std::vector<std::string> names;
  for (const Entry& e : entries) names.push_back(EntryName(e));
  names.insert(names.end(), also_known.begin(), also_known.end());
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  return fmt::format("{} '{}': unknown{} (known: {})", what, name,
                     DidYouMean(std::string(name), names), known.empty() ? "none" : known);
}

// The entry called `name`; throws ncp::Error with UnknownNameMessage when there is none.
template <typename Entry>
const Entry& FindByName(const std::vector<Entry>& entries, std::string_view name,
                        std::string_view what, const std::vector<std::string>& also_known = {}) {
  if (const Entry* e = FindOrNull(entries, name)) return *e;
  throw Error(UnknownNameMessage(entries, name, what, also_known));
}

}  // namespace ncp
