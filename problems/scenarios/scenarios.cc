#include "problems/scenarios/scenarios.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/registry.h"
#include "problems/scenarios/random/manufactured.h"
#include "problems/scenarios/sdf/bolt_nut.h"
#include "problems/scenarios/sdf/dish_piling.h"
#include "problems/scenarios/rigid/scene.h"

namespace ncp {
namespace {

// The spec's defaults are those of ManufacturedOptions, so the generator and its callers in code
// agree.
const std::vector<ParamSpec>& RandomParams() {
  static const std::vector<ParamSpec> specs = [] {
    const ManufacturedOptions d;
    return std::vector<ParamSpec>{
        WholeParam("bodies", d.num_bodies, 1, 1e6, "bodies (6 dofs each, or tree links)"),
        WholeParam("bodies_per_subsystem", d.bodies_per_subsystem, 1, 1e6,
                   "bodies per subsystem, coupled through A (a tree with articulated=1)"),
        WholeParam("articulated", d.articulated ? 1 : 0, 0, 1,
                   "1: subsystems are random kinematic trees with tree data"),
        WholeParam("contacts", d.num_contacts, 0, 1e6, "frictional contacts"),
        WholeParam("unilateral", d.num_unilateral, 0, 1e6, "unilateral (non-friction) rows"),
        WholeParam("bilateral", d.num_bilateral, 0, 1e6, "bilateral rows"),
        WholeParam("soft", d.num_soft, 0, 1e6, "soft (compliant) rows"),
        WholeParam("rows_per_body", d.rows_per_body, 3, 1e6,
                   "constraint rows charged to one body; above 5, λ* is not unique"),
        NonNegativeParam("frac_open", d.frac_open, "share of open contacts (normalized)"),
        NonNegativeParam("frac_stick", d.frac_stick, "share of sticking contacts (normalized)"),
        NonNegativeParam("frac_slip", d.frac_slip, "share of slipping contacts (normalized)"),
        RealParam("ground_fraction", d.ground_fraction, 0, 1,
                  "share of contacts against the static world"),
        NonNegativeParam("mu_min", d.mu_min, "smallest friction coefficient (<= mu_max)"),
        NonNegativeParam("mu_max", d.mu_max, "largest friction coefficient"),
        RealParam("mass_ratio", d.mass_ratio, 1, kNoLimit,
                  "body mass scales m log-uniform in [1, mass_ratio] kg (a 6x6 block's "
                  "eigenvalues span m to m x condition)"),
        // Beyond 1e12 rounding leaves A's smallest eigenvalues to chance (at 1e16 negative).
        RealParam("condition", d.condition, 1, 1e12,
                  "eigenvalue spread of each body's 6x6 mass block"),
        NonNegativeParam("coupling", d.coupling,
                         "strength of the SPD coupling between bodies of one subsystem"),
        PositiveParam("body_size", d.body_size,
                      "contact points within ±body_size of the body's com [m]"),
    };
  }();
  return specs;
}

std::vector<ContactProblem> GenerateRandom(const std::map<std::string, std::string>& params,
                                           int count, std::uint64_t seed) {
  const std::map<std::string, double> v = ParseParams("random", RandomParams(), params);
  auto whole = [&](const char* k) { return static_cast<int>(v.at(k)); };
  ManufacturedOptions o;
  o.num_bodies = whole("bodies");
  o.bodies_per_subsystem = whole("bodies_per_subsystem");
  o.articulated = whole("articulated") == 1;
  o.num_contacts = whole("contacts");
  o.num_unilateral = whole("unilateral");
  o.num_bilateral = whole("bilateral");
  o.num_soft = whole("soft");
  o.rows_per_body = whole("rows_per_body");
  o.frac_open = v.at("frac_open");
  o.frac_stick = v.at("frac_stick");
  o.frac_slip = v.at("frac_slip");
  o.ground_fraction = v.at("ground_fraction");
  o.mu_min = v.at("mu_min");
  o.mu_max = v.at("mu_max");
  o.mass_ratio = v.at("mass_ratio");
  o.condition = v.at("condition");
  o.coupling = v.at("coupling");
  o.body_size = v.at("body_size");
  // What is left are the rules between parameters (fractions' sum, mu_min <= mu_max, enough
  // bodies for the rows).
  if (std::string err = OptionsError(o); !err.empty()) throw Error("random." + err);
  std::vector<ContactProblem> out;
  for (int i = 0; i < count; ++i) {
    o.seed = seed + static_cast<std::uint64_t>(i);
    out.push_back(MakeManufacturedProblem(o, fmt::format("random-{:04d}", i)));
  }
  return out;
}

const std::vector<ParamSpec>& JointFrictionParams() {
  static const std::vector<ParamSpec> specs = [] {
    const JointFrictionTreeOptions d;
    return std::vector<ParamSpec>{
        WholeParam("bodies", d.bodies, 1, 1e5, "free rigid bodies (6 dofs each), one joint each"),
        RealParam("branching", d.branching, 0, 1,
                  "chance that a body hangs from a random earlier body (0: a chain)"),
        NonNegativeParam("mu_min", d.mu_min, "smallest joint friction coefficient (<= mu_max)"),
        NonNegativeParam("mu_max", d.mu_max, "largest joint friction coefficient"),
        PositiveParam("radius_min", d.radius_min, "smallest joint radius [m] (<= radius_max)"),
        PositiveParam("radius_max", d.radius_max, "largest joint radius [m]: the friction lever"),
        NonNegativeParam("drift", d.drift, "joint gap terms e_n uniform in ±drift [m/s]"),
        RealParam("frac_stick", d.frac_stick, 0, 1, "share of sticking joints (others slide)"),
        RealParam("mass_ratio", d.mass_ratio, 1, kNoLimit,
                  "body masses log-uniform in [1, mass_ratio] kg"),
        PositiveParam("body_size", d.body_size,
                      "joint points within ±body_size of the bodies' origins [m]"),
    };
  }();
  return specs;
}

std::vector<ContactProblem> GenerateJointFriction(const std::map<std::string, std::string>& params,
                                                  int count, std::uint64_t seed) {
  const std::map<std::string, double> v =
      ParseParams("joint_friction", JointFrictionParams(), params);
  JointFrictionTreeOptions o;
  o.bodies = static_cast<int>(v.at("bodies"));
  o.branching = v.at("branching");
  o.mu_min = v.at("mu_min");
  o.mu_max = v.at("mu_max");
  o.radius_min = v.at("radius_min");
  o.radius_max = v.at("radius_max");
  o.drift = v.at("drift");
  o.frac_stick = v.at("frac_stick");
  o.mass_ratio = v.at("mass_ratio");
  o.body_size = v.at("body_size");
  // What is left are the rules between parameters (mu_min <= mu_max, radius_min <= radius_max).
  if (std::string err = OptionsError(o); !err.empty()) throw Error("joint_friction." + err);
  std::vector<ContactProblem> out;
  for (int i = 0; i < count; ++i)
    out.push_back(ManufacturedJointFrictionTree(o, seed + static_cast<std::uint64_t>(i),
                                                fmt::format("joint_friction-{:04d}", i)));
  return out;
}

}  // namespace

const std::vector<ScenarioEntry>& Scenarios() {
  static const std::vector<ScenarioEntry> entries = {
      {"random",
       "manufactured problems with a known exact solution: random SPD A, contacts (open/stick/"
       "slip), unilateral, bilateral and soft rows",
       RandomParams(), GenerateRandom},
      {"joint_friction",
       "manufactured problems with a known exact solution: a chain or tree of free rigid bodies "
       "held by revolute joints with joint friction (5 implicit contacts each, sticking or "
       "sliding; 003 §5.2); only solvers with joint-friction support run on it",
       JointFrictionParams(), GenerateJointFriction},
      {"bolt_nut",
       "M48x5 steel nut on a fixed bolt (thread SDF vs nut mesh, Frank-Wolfe contacts, k-means to "
       "<= 120): placements x random wrenches, one step each (004 §VII-A1)",
       BoltNutParams(), GenerateBoltNut},
      {"dish_piling",
       "bowl, bowl, plate and 5 kg pot stacked on the ground (dish SDFs vs dish meshes, "
       "Frank-Wolfe contacts on every pair, k-means to <= 120): random wrenches on every dish, "
       "one step each (004 §VII-B1)",
       DishPilingParams(), GenerateDishPiling},
  };
  return entries;
}

const ScenarioEntry& FindScenario(const std::string& name) {
  if (FindScene(name))  // else "unknown; did you mean 'x'?" for the scene x itself
    throw Error(
        fmt::format("scenario '{}': a scene, not a generator: its frames come from "
                    "simulating it (FindScene and Simulate, or `ncpbench generate`)",
                    name));
  // `generate` takes a scene's name too, so the scenes are named among the known ones.
  std::vector<std::string> scenes;
  for (const SceneEntry& e : Scenes()) scenes.push_back(e.name);
  return FindByName(Scenarios(), name, "scenario", scenes);
}

}  // namespace ncp
