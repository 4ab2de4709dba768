#include "solvers/siconos/driver_matrices.h"

#include <NumericsMatrix.h>

#include <algorithm>
#include <atomic>

#include "solvers/siconos/next_symbol.h"

namespace ncp::siconos {
namespace {

thread_local DriverMatrixScope* t_scope = nullptr;
std::atomic<long> g_freed{0};

using CreateFn = NumericsMatrix* (*)(NM_types, int, int);
using ClearFn = void (*)(NumericsMatrix*);

CreateFn RealCreate() {
  static const CreateFn f = NextSymbol<CreateFn>("NM_create", "Siconos Numerics");
  return f;
}

ClearFn RealClear() {
  static const ClearFn f = NextSymbol<ClearFn>("NM_clear", "Siconos Numerics");
  return f;
}

}  // namespace

DriverMatrixScope::DriverMatrixScope(std::initializer_list<NumericsMatrix**> kept)
    : outer_(t_scope) {
  std::copy_n(kept.begin(), std::min(kept.size(), kept_.size()), kept_.begin());
  t_scope = this;
}

DriverMatrixScope::~DriverMatrixScope() {
  t_scope = outer_;
  for (NumericsMatrix*& m : made_) {
    if (!m) continue;
    const bool held =
        std::any_of(kept_.begin(), kept_.end(), [m](NumericsMatrix** k) { return k && *k == m; });
    if (!held) {
      NM_free(m);  // Siconos' own NM_free: NM_clear, then free of the header
      ++g_freed;
    }
    m = nullptr;
  }
}

void DriverMatrixScope::Made(NumericsMatrix* m) {
  if (std::find(made_.begin(), made_.end(), m) != made_.end()) return;  // never twice
  if (auto slot = std::find(made_.begin(), made_.end(), nullptr); slot != made_.end()) *slot = m;
}

void DriverMatrixScope::Cleared(NumericsMatrix* m) {
  if (auto slot = std::find(made_.begin(), made_.end(), m); slot != made_.end()) *slot = nullptr;
}

long FreedDriverMatrices() { return g_freed.load(); }

}  // namespace ncp::siconos

// Every NM_create and NM_clear Siconos makes passes here (see driver_matrices.h).
extern "C" NumericsMatrix* NM_create(NM_types storage, int size0, int size1) {
  using namespace ncp::siconos;
  NumericsMatrix* m = RealCreate()(storage, size0, size1);
  if (t_scope && m) t_scope->Made(m);
  return m;
}

extern "C" void NM_clear(NumericsMatrix* m) {
  using namespace ncp::siconos;
  if (t_scope && m) t_scope->Cleared(m);
  RealClear()(m);
}
