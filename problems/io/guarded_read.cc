#include "problems/io/guarded_read.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <thread>

#include "common/error.h"

namespace ncp {
namespace {

constexpr int kChildError = 2;    // `read` threw; its message is on the pipe
constexpr std::size_t kMaxMessage = 4096;

void WriteAll(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, data, n);
    if (w <= 0) return;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

std::string ReadAll(int fd) {
  std::string out;
  char buf[512];
  ssize_t r;
  while (out.size() < kMaxMessage && (r = read(fd, buf, sizeof buf)) > 0) out.append(buf, r);
  return out;
}

}  // namespace

double ProbeTimeLimit(const std::string& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  return 10.0 + 2.0 * (ec ? 0.0 : static_cast<double>(bytes) / 1e6);
}

void ProbeRead(const std::string& path, const std::function<void()>& read_fn, double timeout_s) {
  int fds[2];
  if (pipe(fds) != 0) return;
  std::fflush(nullptr);  // the child must not write out the parent's buffered output again
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (pid == 0) {
    // A child looping inside a library must not outlive its reader: it ends with the parent
    // (however the parent ends) and, at the latest, shortly after the time limit.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(kChildError);  // the parent ended before prctl took effect
    alarm(static_cast<unsigned>(timeout_s) + 2);
    close(fds[0]);
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
    }
    int code = 0;
    try {
      read_fn();
    } catch (const std::exception& e) {
      WriteAll(fds[1], e.what(), std::strlen(e.what()));
      code = kChildError;
    }
    close(fds[1]);
    _exit(code);  // no atexit handlers, no flushing of the parent's copies
  }
  close(fds[1]);
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  bool timed_out = false;
  // Most reads end within a millisecond: start polling fast, back off to 2 ms.
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0) {  // not our child any more (e.g. SIGCHLD ignored): nothing to learn
      close(fds[0]);
      return;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
        timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
  const std::string message = ReadAll(fds[0]);
  close(fds[0]);
  if (timed_out) {
    throw Error(fmt::format("{}: reading it took more than {:g} s: a corrupt file", path,
                            timeout_s));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kChildError && !message.empty()) {
    throw Error(message);
  }
  if (WIFSIGNALED(status)) {
    throw Error(fmt::format("{}: reading it ended the reader (signal {}, {}): a corrupt file",
                            path, WTERMSIG(status), strsignal(WTERMSIG(status))));
  }
  throw Error(fmt::format(
      "{}: reading it ended the reader (exit {}; libfclib ends the process when an HDF5 read "
      "fails, a sanitizer on a crash): a corrupt file",
      path, WIFEXITED(status) ? WEXITSTATUS(status) : -1));
}

}  // namespace ncp
