// Maps solver names to factories and setting lists; the only way the harness creates solvers.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "solvers/settings_table.h"
#include "solvers/solver.h"

namespace ncp {

// What a solver does with a local (W, q) problem, e.g. an fclib file, whose W may be
// non-symmetric as exported (single-precision writers): `ncpbench list solvers` prints it.
enum class LocalUse {
  kAsStored,  // iterates on u = W λ + q with W exactly as stored (as Siconos' NSGS does)
  kLifted,  // runs on the lifted primal form of W's symmetric part (solvers/common/lifted_local.h)
  kSymmetricPart,  // iterates on u = ½(W + Wᵀ) λ + q (the engine peers' pivoting factors it)
  kNone,           // global form only
};
const char* Describe(LocalUse u);

struct SolverEntry {
  std::string name;
  std::string description;  // one line, with the paper reference
  std::vector<SettingSpec> settings;
  LocalUse local = LocalUse::kNone;
  std::function<std::unique_ptr<Solver>()> make;
  bool supports_local() const { return local != LocalUse::kNone; }
  // Iterates are bit for bit the same on 1 and 2 OpenMP threads (the conformance suite checks it).
  bool deterministic = false;
  // Why Iterate() allocates (e.g. a sparse factorization per Newton step); empty: it does not,
  // and the conformance suite fails the entry if it does.
  std::string iterate_allocates;
  // Run each job in a forked child with a memory cap (harness/isolated_run.h): for peer
  // libraries that can end the process (MPI_Abort, exit) or exhaust the machine's memory.
  bool isolated = false;
  // Handles joint-friction constraints (ConstraintType::kJointFriction, 003 §5.2). Every other
  // solver is refused on problems that have them before Setup (NotApplicableReason), so that no
  // solver reads their two rows as something else.
  bool joint_friction = false;
  // Built-in solvers: the values of the settings struct made from parsed settings (its
  // SettingsTable's ReadBack), so a test can check that every setting reaches its member; a
  // plug-in may give one for its own tests (the template does); empty for Python solvers. The
  // runner never reads it. Last, so that the positional initializers of plug-ins keep working.
  std::function<std::map<std::string, double>(const Settings&)> read_back;
};

// A built-in solver's entry `e` with its settings and their read-back taken from the one table of
// its settings struct, so that what `list solvers` prints and what a run reads cannot disagree.
template <typename S>
SolverEntry WithSettings(const SettingsTable<S>& table, SolverEntry e) {
  e.settings = table.Specs();
  e.read_back = table.ReadBack();
  return e;
}

// Empty when `e` can be set up on `p`; else the one-line reason it is not applicable.
std::string NotApplicableReason(const SolverEntry& e, const ContactProblem& p);

// The built-in solvers, then the registered ones in registration order.
const std::vector<SolverEntry>& Solvers();
// Throws ncp::Error "solver 'x': unknown[; did you mean 'y'?] (known: ...)".
const SolverEntry& FindSolver(const std::string& name);

// Throws ncp::Error naming the field, the value and the rule where an entry could not be run or
// recorded faithfully: its name (letters, digits, '_', '-', ':': it is a job key's part and a
// --set prefix), its factory, and each setting's name (letters, digits, '_', '-'; unique), bounds
// (min <= max, not NaN), default (finite, within its bounds, an integer where integer, a choice's
// index) and choices (named as settings are, unique). RegisterSolver calls it.
void CheckSolverEntry(const SolverEntry& e);

// While one lives, RegisterSolver refuses: jobs point into the registry, which may move in
// memory when it grows. Held by whatever holds entry pointers (RunOne, the Python module's solve
// and run, from before they look solvers up); a registration in progress finishes before a
// freeze starts.
class RegistryFreeze {
 public:
  RegistryFreeze();
  ~RegistryFreeze();
  RegistryFreeze(const RegistryFreeze&) = delete;
  RegistryFreeze& operator=(const RegistryFreeze&) = delete;
};

// Adds a solver from outside the suite (a plug-in .so, a program linking the libraries), so that
// Solvers() lists it and FindSolver() finds it. Register before creating jobs: the list may move
// in memory. Throws ncp::Error on a taken name, an entry CheckSolverEntry refuses (an empty or
// bad name, a missing factory, bad settings), or while jobs run (RegistryFreeze).
void RegisterSolver(SolverEntry entry);

// True while a RegistryFreeze lives.
bool RegistryFrozen();

// Removes the entries registered after the first `first` (a plug-in whose load failed leaves
// none behind); nothing when there are none. Not while jobs run (RegistryFreeze): throws Error.
void ForgetSolversFrom(std::size_t first);

// RegisterSolver for static initializers, where an exception would end the process: the error
// is kept for TakeRegistrationError() (the plug-in loader reports it as bad input).
bool RegisterSolverAtLoad(SolverEntry entry) noexcept;
// The first error kept by RegisterSolverAtLoad since the last call, or "" when none.
std::string TakeRegistrationError();

}  // namespace ncp

// Registers an entry from a static initializer, e.g. in a plug-in loaded with --plugin:
//   NCP_REGISTER_SOLVER(my_solver, {"my-solver", "what it does", Specs(), ncp::LocalUse::kNone,
//                                   [] { return std::make_unique<MySolver>(); }})
#define NCP_REGISTER_SOLVER(id, ...)                               \
  namespace {                                                      \
  [[maybe_unused]] const bool ncp_registered_##id =                \
      ::ncp::RegisterSolverAtLoad(::ncp::SolverEntry __VA_ARGS__); \
  }
