#include "solvers/registry.h"

#include <fmt/format.h>

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

void RegisterSolver(SolverEntry entry) {
  if (entry.name.empty()) throw Error("solver name = '': must not be empty");
  if (!entry.make)
    throw Error(fmt::format("solver '{}': make = null: must be a factory", entry.name));
  for (const SolverEntry& e : Registry())
    if (e.name == entry.name)
      throw Error(
          fmt::format("solver '{}': already registered (names must be unique)", entry.name));
  Registry().push_back(std::move(entry));
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
