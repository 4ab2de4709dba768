#include "solvers/siconos/mumps_instances.h"

#if __has_include(<dmumps_c.h>)
#include <dmumps_c.h>

#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "solvers/siconos/next_symbol.h"

namespace ncp::siconos {
namespace {

using MumpsEntry = void (*)(DMUMPS_STRUC_C*);

MumpsEntry RealMumps() {
  // No MUMPS after us would mean Siconos was built without it, and it never calls here.
  static const MumpsEntry real = NextSymbol<MumpsEntry>("dmumps_c", "MUMPS");
  return real;
}

// An open instance and the state its owner last passed: ending it needs the control arrays
// (ICNTL, KEEP, ...) as MUMPS last saw them, and the owner's struct may be freed by then.
struct Registry {
  std::mutex mutex;
  std::unordered_map<int, DMUMPS_STRUC_C> open;
  std::unordered_set<int> ended;  // ended by a scope, until MUMPS hands the number out again
  long ended_count = 0;
};

Registry& Reg() {
  static auto* r = new Registry;  // never destroyed: Siconos may call MUMPS during exit
  return *r;
}

thread_local std::vector<int>* t_started = nullptr;

void End(DMUMPS_STRUC_C last) {
  // User arrays may be freed; MUMPS' own (scaling, permutations) stay associated on its side.
  last.irn = last.jcn = last.irn_loc = last.jcn_loc = last.eltptr = last.eltvar = nullptr;
  last.a = last.a_loc = last.a_elt = nullptr;
  last.blkptr = last.blkvar = last.perm_in = last.sym_perm = last.uns_perm = nullptr;
  last.colsca = last.rowsca = nullptr;
  last.rhs = last.redrhs = last.rhs_sparse = last.sol_loc = last.rhs_loc = nullptr;
  last.irhs_sparse = last.irhs_ptr = last.isol_loc = last.irhs_loc = nullptr;
  last.pivnul_list = last.mapping = last.listvar_schur = nullptr;
  last.schur = last.wk_user = nullptr;
  last.job = -2;
  RealMumps()(&last);
}

}  // namespace

MumpsInstanceScope::MumpsInstanceScope() : outer_(t_started) { t_started = &started_; }

MumpsInstanceScope::~MumpsInstanceScope() {
  t_started = outer_;
  Registry& r = Reg();
  for (int k : started_) {
    DMUMPS_STRUC_C last;
    {
      std::lock_guard lock(r.mutex);
      auto it = r.open.find(k);
      if (it == r.open.end()) continue;  // Siconos ended it itself
      last = it->second;
      r.open.erase(it);
      r.ended.insert(k);
      ++r.ended_count;
    }
    End(last);
  }
}

int OpenMumpsInstances() {
  std::lock_guard lock(Reg().mutex);
  return static_cast<int>(Reg().open.size());
}

long EndedMumpsInstances() {
  std::lock_guard lock(Reg().mutex);
  return Reg().ended_count;
}

}  // namespace ncp::siconos

// Every MUMPS call Siconos makes passes here (see mumps_instances.h).
extern "C" void dmumps_c(DMUMPS_STRUC_C* id) {
  using namespace ncp::siconos;
  Registry& r = Reg();
  const int job = id->job, k = id->instance_number;
  if (job != -1) {
    std::lock_guard lock(r.mutex);
    if (r.ended.count(k)) {  // a matrix kept across driver calls after all: refuse, never reuse
      id->info[0] = id->infog[0] = -999;
      return;
    }
  }
  RealMumps()(id);
  std::lock_guard lock(r.mutex);
  if (job == -1) {
    if (id->infog[0] < 0) return;
    r.open[id->instance_number] = *id;
    r.ended.erase(id->instance_number);
    if (t_started) t_started->push_back(id->instance_number);
  } else if (job == -2) {
    r.open.erase(k);
  } else if (auto it = r.open.find(k); it != r.open.end()) {
    it->second = *id;
  }
}

#else  // no MUMPS headers: Siconos' MUMPS calls go straight to MUMPS

namespace ncp::siconos {
MumpsInstanceScope::MumpsInstanceScope() : outer_(nullptr) {}
MumpsInstanceScope::~MumpsInstanceScope() = default;
int OpenMumpsInstances() { return 0; }
long EndedMumpsInstances() { return 0; }
}  // namespace ncp::siconos

#endif
