#include "problems/io/guarded_read.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <hdf5.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <vector>

#include "common/error.h"
#include "common/file_write.h"
#include "common/file_kind.h"
#include "common/wait_pid.h"
#include "problems/io/hdf5_heap_check.h"
#include "problems/io/probe_sanitizer.h"

namespace ncp {
namespace {

constexpr std::int32_t kChildError = 2;      // `read` threw; its message follows
constexpr std::int32_t kChildSanitizer = 3;  // a sanitizer reported an error (sanitized builds)
constexpr std::uint32_t kMaxMessage = 4096;
constexpr std::uint32_t kMaxPath = 1 << 16;

struct Request {
  ConvertFn convert;
  double timeout_s;
  std::uint32_t path_bytes, out_bytes;
};
struct Reply {
  std::int32_t code;
  std::uint32_t message_bytes;
};

bool WriteAll(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);  // a dead peer is EPIPE, not SIGPIPE
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool ReadAll(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

int g_child_fd = -1;  // the child's end of the socket, for a sanitizer's report

// The probe's limit is on the child's CPU time (ProbeChild::Ask); its wall-clock time is capped
// at this multiple of that limit (a reader starved by a loaded machine, or stalled).
constexpr double kProbeWallFactor = 10.0;

// Makes the child's faults plain: a crash on a corrupt file ends it by the signal, without a
// sanitizer's report (which starts a symbolizer process per crash: half a fuzzer's time), and
// the alarm ends it without the fuzzer's own timeout report. A sanitizer's report on the suite's
// own code is printed on the parent's stderr and sent to the parent, which stops
// (probe_sanitizer.h): the probe must not hide it.
void PrepareChildSignals(int stderr_fd) {
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) signal(sig, SIG_DFL);
  WatchSanitizerReports(stderr_fd, [] {
    const Reply r{kChildSanitizer, 0};
    (void)!send(g_child_fd, &r, sizeof r, MSG_NOSIGNAL);
  });
}

// The child: the parent's one request, then it ends (the parent does not wait for that).
[[noreturn]] void Serve(int fd) {
  g_child_fd = fd;
  // A read that calls exit() (libfclib does on a failed HDF5 call) ends the child at once with
  // that status: registered last, this runs before the exit handlers inherited from the parent
  // (its static destructors, a fuzzer's report of an exiting target), which are not the child's.
  on_exit([](int status, void*) { _exit(status); }, nullptr);
  Request q;
  if (!ReadAll(fd, &q, sizeof q) || q.path_bytes > kMaxPath || q.out_bytes > kMaxPath) _exit(0);
  std::string path(q.path_bytes, '\0'), out(q.out_bytes, '\0');
  if (!ReadAll(fd, path.data(), path.size()) || !ReadAll(fd, out.data(), out.size())) _exit(0);
  // A read looping or stalled inside a library ends, at the latest, shortly after the wall cap.
  alarm(static_cast<unsigned>(std::min(kProbeWallFactor * q.timeout_s, 1e6)) + 2);
  Reply r{0, 0};
  std::string message;
  try {
    CheckLocalHeapFreeLists(path);  // what libhdf5 would loop on: refused at once
    q.convert(path, out);
    // A corrupt file can make libhdf5 put one block on its free lists twice without a fault in
    // the read; the caller, reading the same file, would then fail much later (the dataset
    // fuzzer saw a double free when the library shut down, 372 617 reads on). Returning the
    // lists to malloc here makes such a block a double free in the child, which ends it.
    H5garbage_collect();
  } catch (const std::exception& e) {
    message = e.what();
    message.resize(std::min<std::size_t>(message.size(), kMaxMessage));
    r = {kChildError, static_cast<std::uint32_t>(message.size())};
  }
  alarm(0);
  (void)(WriteAll(fd, &r, sizeof r) && WriteAll(fd, message.data(), message.size()));
  _exit(0);
}

// Children killed after they answered: reaped later, without waiting, since tearing one down
// (its copy of the caller's memory) takes milliseconds -- as long as the read itself.
std::vector<pid_t>& Unreaped() {
  static std::vector<pid_t> pids;
  return pids;
}
void ReapFinished(std::size_t keep_at_most) {
  std::vector<pid_t>& pids = Unreaped();
  std::erase_if(pids, [](pid_t pid) { return WaitPid(pid, nullptr, WNOHANG) != 0; });
  while (pids.size() > keep_at_most) {
    WaitPid(pids.front(), nullptr, 0);
    pids.erase(pids.begin());
  }
}

// A process's CPU time so far [s] (user + system, /proc/<pid>/stat), or -1 where unreadable.
double CpuSeconds(pid_t pid) {
  std::FILE* f = std::fopen(fmt::format("/proc/{}/stat", pid).c_str(), "r");
  if (!f) return -1.0;
  char buf[1024];
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  // Fields after the command name, which is in parentheses and may hold spaces: state is the
  // 3rd field, utime and stime the 14th and 15th.
  const char* p = std::strrchr(buf, ')');
  unsigned long long utime = 0, stime = 0;
  if (!p || std::sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                        &stime) != 2)
    return -1.0;
  const long tick = sysconf(_SC_CLK_TCK);
  return tick > 0 ? static_cast<double>(utime + stime) / static_cast<double>(tick) : -1.0;
}

// The probe: a forked child and the parent's end of the socket between them.
class ProbeChild {
 public:
  ~ProbeChild() { Dismiss(); }

  // Ends a child that answered; its teardown goes on while the caller reads.
  void Dismiss() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      Unreaped().push_back(pid_);
    }
    if (fd_ >= 0) close(fd_);
    pid_ = -1;
    fd_ = -1;
  }

  // False where fork or a socket is unavailable.
  bool Start() {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return false;
    std::fflush(nullptr);  // the child must not write out the parent's buffered output again
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      return false;
    }
    if (pid == 0) {
      // The child ends with the parent, however the parent ends.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(0);  // the parent ended before prctl took effect
      close(fds[0]);
      ForgetTemporaries();  // the parent's files being written: not the reader's to remove
      PrepareChildSignals(dup(STDERR_FILENO));
      const int null_fd = open("/dev/null", O_WRONLY);
      if (null_fd >= 0) {
        dup2(null_fd, STDOUT_FILENO);
        dup2(null_fd, STDERR_FILENO);
      }
      Serve(fds[1]);
    }
    close(fds[1]);
    pid_ = pid;
    fd_ = fds[0];
    return true;
  }

  // Ends the child and returns how it ended (waitpid's status).
  int Stop(bool kill_it = true) {
    int status = 0;
    if (pid_ > 0) {
      if (kill_it) kill(pid_, SIGKILL);
      WaitPid(pid_, &status, 0);
    }
    if (fd_ >= 0) close(fd_);
    pid_ = -1;
    fd_ = -1;
    return status;
  }

  enum class Result { kRead, kThrew, kEnded, kTimedOut, kSanitizer };
  // One request. kEnded: the child is gone (status in `status`); kTimedOut: it was killed, having
  // used `timeout_s` of CPU time, or waited kProbeWallFactor × timeout_s in all (`waited_s`,
  // `cpu_s`). The limit is on CPU time because a loaded machine (or a sanitizer beside other jobs)
  // slows a sound read several-fold in wall time, while a reader looping on a corrupt file burns
  // CPU.
  Result Ask(const std::string& path, const std::string& out, ConvertFn convert, double timeout_s,
             std::string& message, int& status, double& waited_s, double& cpu_s) {
    const Request q{convert, timeout_s, static_cast<std::uint32_t>(path.size()),
                    static_cast<std::uint32_t>(out.size())};
    if (!WriteAll(fd_, &q, sizeof q) || !WriteAll(fd_, path.data(), path.size()) ||
        !WriteAll(fd_, out.data(), out.size())) {
      status = Stop();
      return Result::kEnded;
    }
    const auto start = std::chrono::steady_clock::now();
    auto deadline = start + std::chrono::duration<double>(timeout_s);
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      const double left = std::chrono::duration<double>(deadline - now).count();
      if (left <= 0) {
        waited_s = std::chrono::duration<double>(now - start).count();
        cpu_s = CpuSeconds(pid_);
        if (cpu_s >= 0 && cpu_s < timeout_s && waited_s < kProbeWallFactor * timeout_s) {
          // Starved, not looping: wait for the CPU time it has left, within the wall cap.
          const double more =
              std::min(std::max(timeout_s - cpu_s, 0.05), kProbeWallFactor * timeout_s - waited_s);
          deadline = now + std::chrono::duration<double>(more);
          continue;
        }
        status = Stop();
        return Result::kTimedOut;
      }
      pollfd p{fd_, POLLIN, 0};
      const int ready = poll(&p, 1, static_cast<int>(std::ceil(std::min(left, 3600.0) * 1e3)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) {
        status = Stop();
        return Result::kEnded;
      }
      if (ready > 0) break;
    }
    Reply r;
    const bool replied = ReadAll(fd_, &r, sizeof r);
    if (replied && r.code == kChildSanitizer) {
      status = Stop(/*kill_it=*/false);
      return Result::kSanitizer;
    }
    if (!replied || r.message_bytes > kMaxMessage) {
      status = Stop(/*kill_it=*/false);  // it ended by itself: its exit status tells how
      return Result::kEnded;
    }
    message.assign(r.message_bytes, '\0');
    if (!ReadAll(fd_, message.data(), message.size())) {
      status = Stop(false);
      return Result::kEnded;
    }
    if (r.code == kChildError && !message.empty()) return Result::kThrew;
    if (r.code == 0) return Result::kRead;
    Stop();
    status = W_EXITCODE(kChildError, 0);  // it threw without a message
    return Result::kEnded;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
};

std::mutex& ProbeMutex() {
  static std::mutex m;
  return m;
}

[[noreturn]] void ThrowEnded(const std::string& path, int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    // Faults of the reader's own code are what a corrupt file causes; a kill from outside (the
    // OOM killer, a user), a file-size or CPU limit say nothing about the file.
    const bool fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
                       sig == SIGABRT || sig == SIGTRAP;
    if (!fault)
      throw Error(
          fmt::format("{}: the reader was stopped by signal {} ({}) from outside the file "
                      "(out of memory, a limit, a kill): not a verdict on the file; try again",
                      path, sig, strsignal(sig)));
    throw Error(fmt::format("{}: reading it ended the reader (signal {}, {}): a corrupt file", path,
                            sig, strsignal(sig)));
  }
  throw Error(fmt::format(
      "{}: reading it ended the reader (exit {}; libfclib ends the process when an HDF5 read "
      "fails, a sanitizer on a crash): a corrupt file",
      path, WIFEXITED(status) ? WEXITSTATUS(status) : -1));
}

std::atomic<double> g_probe_time_base{3.0};

}  // namespace

void SetProbeTimeBase(double seconds) { g_probe_time_base = seconds; }

double ProbeTimeLimit(const std::string& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  return g_probe_time_base + 2.0 * (ec ? 0.0 : static_cast<double>(bytes) / 1e6);
}

namespace {

// Runs the conversion of `path` into `out` in a forked child. False where fork is unavailable
// (nothing ran); throws ncp::Error when the child refused the file or ended.
bool Probe(const std::string& path, const std::string& out, ConvertFn convert, double timeout_s) {
  if (path.size() > kMaxPath || out.size() > kMaxPath)
    throw Error(fmt::format("{}...: path too long", path.substr(0, 80)));
  // One probe at a time: a fork while another thread probes would copy its half-done state.
  const std::lock_guard<std::mutex> lock(ProbeMutex());
  ReapFinished(/*keep_at_most=*/8);
  ProbeChild child;  // forked now and ended on return, whatever happens
  if (!child.Start()) return false;
  std::string message;
  int status = 0;
  double waited_s = 0.0, cpu_s = 0.0;
  switch (child.Ask(path, out, convert, timeout_s, message, status, waited_s, cpu_s)) {
    case ProbeChild::Result::kRead:
      return true;
    case ProbeChild::Result::kThrew:
      throw Error(message);
    case ProbeChild::Result::kSanitizer:
      // Only a sanitized build gets here: a memory error in the read is a bug, not a file.
      std::fprintf(stderr, "%s: a sanitizer reported an error while the probe read it\n",
                   path.c_str());
      std::abort();
    case ProbeChild::Result::kTimedOut:
      if (cpu_s >= timeout_s)
        throw Error(fmt::format("{}: reading it took more than {:g} s of CPU time: a corrupt file",
                                path, timeout_s));
      if (cpu_s < 0)  // the reader's CPU time was unreadable: only the wall clock decided
        throw Error(fmt::format(
            "{}: reading it took more than {:g} s ({:.3g} s waited): a corrupt file or a stalled "
            "file system",
            path, timeout_s, waited_s));
      throw Error(fmt::format(
          "{}: reading it took more than {:g} s ({:.3g} s waited, {:.3g} s of CPU time: the reader "
          "stalled): a corrupt file or a stalled file system",
          path, timeout_s, waited_s, cpu_s));
    case ProbeChild::Result::kEnded:
      ThrowEnded(path, status);
  }
  return true;
}

constexpr const char* kCopyPrefix = "ncpbench-copy-";

// Folders of copies whose process was killed before it could remove them (kill -9 in a sweep):
// named for a process that no longer exists and older than an hour (a copy is read right after it
// is made; the age spares a live process in another pid namespace sharing the folder). Swept before
// each copy (a listing of a small folder), so that /dev/shm (memory) does not fill up with them.
void SweepStaleCopies(const std::filesystem::path& base) {
  std::error_code ec;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (auto it = std::filesystem::directory_iterator(base, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::filesystem::path& folder = it->path();
    const std::string name = folder.filename().string();
    if (name.rfind(kCopyPrefix, 0) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + std::strlen(kCopyPrefix), &end, 10);
    if (pid <= 0 || pid > INT32_MAX || *end != '-' || pid == getpid()) continue;
    if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code age_ec;
    const auto written = std::filesystem::last_write_time(folder, age_ec);
    if (age_ec || now - written < std::chrono::hours(1)) continue;
    std::filesystem::remove_all(folder, age_ec);
  }
}

// A fresh private folder for a trusted copy: in $TMPDIR when set, else in /dev/shm where there is
// one (a copy is read right away); the copy and whatever temporary files its writer left go with
// the folder. Its name carries the process id, for SweepStaleCopies.
std::string CopyFolder() {
  std::error_code ec;
  std::filesystem::path base;
  if (const char* tmpdir = std::getenv("TMPDIR"); tmpdir != nullptr && *tmpdir != '\0')
    base = tmpdir;
  else if (std::filesystem::is_directory("/dev/shm", ec) && access("/dev/shm", W_OK) == 0)
    base = "/dev/shm";
  else
    base = std::filesystem::temp_directory_path(ec);
  SweepStaleCopies(base);
  std::string pattern = (base / fmt::format("{}{}-XXXXXX", kCopyPrefix, getpid())).string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw Error(fmt::format("{}: cannot create a folder for a file's trusted copy: {}",
                            base.string(), std::strerror(errno)));
  return pattern;
}

}  // namespace

void ThrowCopyNotWritten(const std::string& in, const std::string& out, const std::string& what,
                         const std::string& cause) {
  // The copy's folder is $TMPDIR or /dev/shm (64 MB in a default container): say which.
  const bool full = cause.find("No space left") != std::string::npos;
  throw Error(fmt::format(
      "{}: read, but its {} cannot be written again ({}){}", in, what, cause,
      full ? fmt::format("; the reader's private copy goes to {}: set TMPDIR to a folder with "
                         "room",
                         std::filesystem::path(out).parent_path().parent_path().string())
           : ""));
}

TrustedCopy::TrustedCopy(const std::string& path, ConvertFn convert, double timeout_s)
    : folder_(CopyFolder()), path_(folder_ + "/copy.h5") {
  try {
    RefuseNonRegularInput(path);  // here, before the fork: the child's open would block on a FIFO
    // Without fork the conversion runs here: the caller then reads the copy as it would have
    // read the file.
    if (!Probe(path, path_, convert, timeout_s)) convert(path, path_);
  } catch (...) {
    Remove();
    throw;
  }
}

TrustedCopy::~TrustedCopy() { Remove(); }

void TrustedCopy::Remove() {
  std::error_code ec;
  std::filesystem::remove_all(folder_, ec);
}

}  // namespace ncp
