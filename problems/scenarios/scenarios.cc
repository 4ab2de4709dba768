#include "problems/scenarios/scenarios.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "common/did_you_mean.h"
#include "common/error.h"
#include "problems/scenarios/random/manufactured.h"
#include "problems/scenarios/sdf/bolt_nut.h"
#include "problems/scenarios/sdf/dish_piling.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {
namespace {

double Number(const std::string& key, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v))
    throw Error(fmt::format("random.{} = {}: must be a finite number", key, text));
  return v;
}

int Integer(const std::string& key, const std::string& text) {
  const double v = Number(key, text);
  if (v != std::floor(v) || std::abs(v) > 1e9)
    throw Error(fmt::format("random.{} = {}: must be an integer", key, text));
  return static_cast<int>(v);
}

std::vector<ContactProblem> GenerateRandom(const std::map<std::string, std::string>& params,
                                           int count, std::uint64_t seed) {
  ManufacturedOptions o;
  const std::map<std::string, int*> ints = {
      {"bodies", &o.num_bodies},         {"bodies_per_subsystem", &o.bodies_per_subsystem},
      {"contacts", &o.num_contacts},     {"unilateral", &o.num_unilateral},
      {"bilateral", &o.num_bilateral},   {"soft", &o.num_soft},
      {"rows_per_body", &o.rows_per_body}};
  const std::map<std::string, double*> reals = {
      {"frac_open", &o.frac_open},   {"frac_stick", &o.frac_stick},
      {"frac_slip", &o.frac_slip},   {"ground_fraction", &o.ground_fraction},
      {"mu_min", &o.mu_min},         {"mu_max", &o.mu_max},
      {"mass_ratio", &o.mass_ratio}, {"condition", &o.condition},
      {"coupling", &o.coupling},     {"body_size", &o.body_size}};
  for (const auto& [k, v] : params) {
    if (k == "articulated") {
      const int a = Integer(k, v);
      if (a != 0 && a != 1) throw Error(fmt::format("random.articulated = {}: must be 0 or 1", v));
      o.articulated = a == 1;
    } else if (auto it = ints.find(k); it != ints.end()) *it->second = Integer(k, v);
    else if (auto jt = reals.find(k); jt != reals.end()) *jt->second = Number(k, v);
    else {
      std::string known = "articulated ";
      for (const auto& [n, p] : ints) known += n + " ";
      for (const auto& [n, p] : reals) known += n + " ";
      throw Error(fmt::format("random.{}: unknown parameter (known: {})", k, known));
    }
  }
  if (std::string err = ValidateOptions(o); !err.empty()) throw Error("random." + err);
  std::vector<ContactProblem> out;
  for (int i = 0; i < count; ++i) {
    o.seed = seed + static_cast<std::uint64_t>(i);
    out.push_back(MakeManufacturedProblem(o, fmt::format("random-{:04d}", i)));
  }
  return out;
}

}  // namespace

const std::vector<ScenarioEntry>& Scenarios() {
  static const std::vector<ScenarioEntry> entries = {
      {"random",
       "manufactured problems with a known exact solution: random SPD A, contacts (open/stick/"
       "slip), unilateral, bilateral and soft rows",
       GenerateRandom},
      {"bolt_nut",
       "M48x5 steel nut on a fixed bolt (thread SDF vs nut mesh, Frank-Wolfe contacts, k-means to "
       "<= 120): placements x random wrenches, one step each (004 §VII-A1)",
       GenerateBoltNut},
      {"dish_piling",
       "bowl, bowl, plate and 5 kg pot stacked on the ground (dish SDFs vs dish meshes, "
       "Frank-Wolfe contacts on every pair, k-means to <= 120): random wrenches on every dish, "
       "one step each (004 §VII-B1)",
       GenerateDishPiling},
  };
  return entries;
}

const ScenarioEntry& FindScenario(const std::string& name) {
  std::string known;
  std::vector<std::string> names;
  for (const ScenarioEntry& e : Scenarios()) {
    if (e.name == name) return e;
    known += (known.empty() ? "" : ", ") + e.name;
    names.push_back(e.name);
  }
  for (const SceneEntry& e : Scenes()) known += ", " + e.name, names.push_back(e.name);
  throw Error(
      fmt::format("scenario '{}': unknown{} (known: {})", name, DidYouMean(name, names), known));
}

}  // namespace ncp
