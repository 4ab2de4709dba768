#include "solvers/siconos/abort_guard.h"

#include <csetjmp>
#include <csignal>

namespace ncp::siconos {
namespace {

thread_local sigjmp_buf* t_jump = nullptr;

void OnAbort(int) {
  if (t_jump) siglongjmp(*t_jump, 1);
  std::signal(SIGABRT, SIG_DFL);  // not ours: let abort() finish
}

}  // namespace

bool RunGuarded(const std::function<int()>& call, int* result) {
  struct sigaction guard {
  }, previous{};
  guard.sa_handler = OnAbort;
  sigemptyset(&guard.sa_mask);
  sigaction(SIGABRT, &guard, &previous);
  sigjmp_buf env;
  volatile bool ok = false;
  if (sigsetjmp(env, 1) == 0) {
    t_jump = &env;
    *result = call();
    ok = true;
  }
  t_jump = nullptr;
  sigaction(SIGABRT, &previous, nullptr);
  return ok;
}

}  // namespace ncp::siconos
