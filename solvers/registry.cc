#include "solvers/registry.h"

#include <fmt/format.h>

#include <atomic>
#include <mutex>
#include <cmath>

#include "common/error.h"
#include "common/registry.h"
#include "solvers/admm/entry.h"
#include "solvers/al/entry.h"
#include "solvers/apgd/entry.h"
#include "solvers/bisp/entry.h"
#include "solvers/ccs/entry.h"
#include "solvers/cond/entry.h"
#include "solvers/local_newton/entry.h"
#include "solvers/nnewton/entry.h"
#include "solvers/pgs/entry.h"
#include "solvers/pj/entry.h"
#include "solvers/redmax/entry.h"
#include "solvers/sp/entry.h"
#include "solvers/subadmm/entry.h"
#include "solvers/subadmm_rigid/entry.h"
#ifdef NCP_WITH_SICONOS
#include "solvers/siconos/siconos_entries.h"
#endif
#ifdef NCP_WITH_BULLET
#include "solvers/engines/bullet_peers.h"
#endif
#ifdef NCP_WITH_DART
#include "solvers/engines/dart_peers.h"
#endif

namespace ncp {

const char* ToString(Status s) {
  switch (s) {
    case Status::kRunning:
      return "running";
    case Status::kStopped:
      return "stopped";
    case Status::kDiverged:
      return "diverged";
    case Status::kFailed:
      return "failed";
    case Status::kNotApplicable:
      return "not-applicable";
  }
  return "unknown";
}

const char* Describe(LocalUse u) {
  switch (u) {
    case LocalUse::kAsStored:
      return "local (W, q): W as stored";
    case LocalUse::kLifted:
      return "local (W, q): lifted form of W's symmetric part";
    case LocalUse::kSymmetricPart:
      return "local (W, q): W's symmetric part";
    case LocalUse::kNone:
      return "global form only";
  }
  return "global form only";
}

namespace {

// Each solver folder provides its entries (its entry.h); this list fixes their order. Solvers
// outside solvers/ (the CUDA solver of gpu/, plug-ins) register themselves with RegisterSolver.
std::vector<SolverEntry> MakeEntries() {
  std::vector<SolverEntry> entries = {PgsEntry(), PjEntry(), ApgdEntry(), AdmmFullEntry()};
  const auto append = [&entries](std::vector<SolverEntry> more) {
    for (SolverEntry& e : more) entries.push_back(std::move(e));
  };
  append(SubAdmmEntries());
  append(AlEntries());
  entries.push_back(NNewtonEntry());
  entries.push_back(LocalNewtonEntry());
  entries.push_back(CondEntry());
  entries.push_back(CcsEntry());
  entries.push_back(SpEntry());
  entries.push_back(BispEntry());
  entries.push_back(RedmaxEntry());
  entries.push_back(SubAdmmRigidCpuEntry());
#ifdef NCP_WITH_SICONOS
  append(siconos::Entries());
#endif
#ifdef NCP_WITH_BULLET
  append(engines::BulletEntries());
#endif
#ifdef NCP_WITH_DART
  append(engines::DartEntries());
#endif
  return entries;
}

// Built on first use, so that a static initializer elsewhere may register into it.
std::vector<SolverEntry>& Registry() {
  static std::vector<SolverEntry> entries = MakeEntries();
  return entries;
}

}  // namespace

const std::vector<SolverEntry>& Solvers() { return Registry(); }

std::string NotApplicableReason(const SolverEntry& e, const ContactProblem& p) {
  if (e.joint_friction) return {};
  for (const Constraint& c : p.constraints)
    if (c.type == ConstraintType::kJointFriction) {
      std::string takers;
      for (const SolverEntry& s : Solvers())
        if (s.joint_friction) takers += (takers.empty() ? "" : ", ") + s.name;
      return fmt::format(
          "solver '{}': does not handle joint-friction constraints (solvers that "
          "do: {})",
          e.name, takers.empty() ? "none" : takers);
    }
  return {};
}

namespace {

std::atomic<int> g_frozen = 0;  // RegistryFreeze objects alive
// Held while a registration checks the freeze and grows the registry, and while a freeze starts:
// a job that takes entry pointers after its freeze began never sees the registry move.
std::mutex g_registry_mutex;

bool NamedAs(const std::string& name, bool colon) {
  return !name.empty() &&
         name.find_first_not_of(colon ? "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-:"
                                      : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-") == std::string::npos;
}

void CheckSetting(const std::string& solver, const SettingSpec& s) {
  const std::string where = fmt::format("solver '{}': setting '{}'", solver, s.name);
  if (!NamedAs(s.name, false))
    throw Error(where + ": its name must be letters, digits, '_' and '-' (not empty)");
  if (std::isnan(s.min) || std::isnan(s.max) || s.min > s.max)
    throw Error(
        fmt::format("{}: bounds [{}, {}]: must be numbers with min <= max", where, s.min, s.max));
  const double v = s.default_value;
  if (!s.choices.empty()) {
    for (std::size_t i = 0; i < s.choices.size(); ++i) {
      if (!NamedAs(s.choices[i], false))
        throw Error(fmt::format("{}: choice '{}': must be letters, digits, '_' and '-'", where,
                                s.choices[i]));
      for (std::size_t j = 0; j < i; ++j)
        if (s.choices[j] == s.choices[i])
          throw Error(fmt::format("{}: choice '{}': given twice", where, s.choices[i]));
    }
    if (!(v >= 0 && v < static_cast<double>(s.choices.size()) && v == std::floor(v)))
      throw Error(fmt::format("{}: default = {}: must be the index of one of its {} choices", where,
                              v, s.choices.size()));
    return;
  }
  const bool within = std::isfinite(v) && (s.min_open ? v > s.min : v >= s.min) &&
                      (s.max_open ? v < s.max : v <= s.max) && (!s.integer || v == std::floor(v));
  if (!within)
    throw Error(fmt::format("{}: default = {}: must be a finite {} in {}{}, {}{}", where, v,
                            s.integer ? "integer" : "number", s.min_open ? "(" : "[", s.min, s.max,
                            s.max_open ? ")" : "]"));
}

}  // namespace

void CheckSolverEntry(const SolverEntry& e) {
  if (!NamedAs(e.name, true))
    throw Error(
        fmt::format("solver name = '{}': must be letters, digits, '_', '-' and ':' (not "
                    "empty)",
                    e.name));
  if (!e.make) throw Error(fmt::format("solver '{}': make = null: must be a factory", e.name));
  for (std::size_t i = 0; i < e.settings.size(); ++i) {
    CheckSetting(e.name, e.settings[i]);
    for (std::size_t j = 0; j < i; ++j)
      if (e.settings[j].name == e.settings[i].name)
        throw Error(
            fmt::format("solver '{}': setting '{}': declared twice", e.name, e.settings[i].name));
  }
}

RegistryFreeze::RegistryFreeze() {
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  ++g_frozen;
}
RegistryFreeze::~RegistryFreeze() { --g_frozen; }

bool RegistryFrozen() { return g_frozen > 0; }

void RegisterSolver(SolverEntry entry) {
  CheckSolverEntry(entry);
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  if (g_frozen > 0)
    throw Error(fmt::format(
        "solver '{}': registered while jobs run: register when the plug-in is loaded", entry.name));
  for (const SolverEntry& e : Registry())
    if (e.name == entry.name)
      throw Error(
          fmt::format("solver '{}': already registered (names must be unique)", entry.name));
  Registry().push_back(std::move(entry));
}

void ForgetSolversFrom(std::size_t first) {
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  if (first >= Registry().size()) return;
  if (g_frozen > 0) throw Error("the solver registry: cannot shrink while jobs run");
  Registry().erase(Registry().begin() + static_cast<std::ptrdiff_t>(first), Registry().end());
}

namespace {
std::vector<std::string>& LoadErrors() {
  static std::vector<std::string> errors;
  return errors;
}
}  // namespace

bool RegisterSolverAtLoad(SolverEntry entry) noexcept {
  try {
    RegisterSolver(std::move(entry));
    return true;
  } catch (const std::exception& e) {
    LoadErrors().push_back(e.what());
    return false;
  }
}

std::string TakeRegistrationError() {
  std::string first = LoadErrors().empty() ? "" : LoadErrors().front();
  LoadErrors().clear();
  return first;
}

const SolverEntry& FindSolver(const std::string& name) {
  return FindByName(Solvers(), name, "solver");
}

}  // namespace ncp
