// The Debian build of Siconos Numerics keeps its assertions, and some fire on hard problems
// (e.g. NSN-FB's generated Fischer–Burmeister code on LMGC_100_PR_PerioBox). A failed assertion
// calls abort(), which would end the whole benchmark; the guard turns it into a solver failure.
#pragma once

#include <functional>

namespace ncp::siconos {

// Runs `call` with SIGABRT caught; returns false when it aborted (then `*result` is untouched).
// The aborted library call leaks whatever it had allocated; the caller must not reuse its state.
bool RunGuarded(const std::function<int()>& call, int* result);

}  // namespace ncp::siconos
