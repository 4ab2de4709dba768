// The definition a symbol the suite interposes (dmumps_c, NM_create, NM_clear) would have had:
// the next one after ours in the lookup order. Ours only forward, so without it there is
// nothing to do but stop.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace ncp::siconos {

template <class Fn>
Fn NextSymbol(const char* name, const char* library) {
  auto f = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
  if (!f) {
    std::fprintf(stderr, "ncpbench: %s called but no %s library is loaded\n", name, library);
    std::abort();
  }
  return f;
}

}  // namespace ncp::siconos
