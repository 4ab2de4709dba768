// waitpid, taken up again when a signal interrupted it: under a periodic signal without
// SA_RESTART (libFuzzer's timer, a profiler's) a bare waitpid returns EINTR, and a caller that
// took that for an answer left its child a zombie or misread how it ended.
#pragma once

#include <sys/types.h>
#include <sys/wait.h>

#include <cerrno>

namespace ncp {

inline pid_t WaitPid(pid_t pid, int* status, int options) {
  pid_t r;
  do r = waitpid(pid, status, options);
  while (r < 0 && errno == EINTR);
  return r;
}

}  // namespace ncp
