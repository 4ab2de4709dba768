#include "common/file_write.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

#include "common/error.h"
#include "common/file_kind.h"

namespace ncp {

void CreateParentFolders(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (parent.empty() || std::filesystem::is_directory(parent, ec)) return;
  if (!std::filesystem::create_directories(parent, ec) || ec)
    throw Error(fmt::format("{}: cannot create the folder '{}': {}", path, parent.string(),
                            ec ? ec.message() : "a file of that name exists"));
}

void RemoveEntryAt(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::symlink_status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_directory(st))
    std::filesystem::remove(path, ec);
}

void WriteNewFile(const std::string& path, std::string_view bytes) {
  if (path.empty()) throw Error("output path '': must name a file");
  CreateParentFolders(path);
  RemoveEntryAt(path);
  std::error_code ec;
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  auto fail = [&](int err) {
    close(fd);
    std::filesystem::remove(path, ec);
    throw Error(fmt::format("{}: write failed: {}; nothing written", path, std::strerror(err)));
  };
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) fail(errno);  // ENOSPC can come late
  if (close(fd) != 0) {
    const int err = errno;
    std::filesystem::remove(path, ec);
    throw Error(fmt::format("{}: write failed: {}; nothing written", path, std::strerror(err)));
  }
}

namespace {

// fsync, so that a rename never publishes a file whose bytes are not yet on disk.
void SyncFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW);
  if (fd < 0)
    throw Error(fmt::format("{}: cannot open it to sync it: {}", path, std::strerror(errno)));
  const int rc = fsync(fd);
  const int err = errno;
  close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS)
    throw Error(fmt::format("{}: cannot sync it to disk: {}", path, std::strerror(err)));
}

// Best effort: some file systems do not sync directories.
void SyncDir(const std::filesystem::path& dir) {
  const int fd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  fsync(fd);
  close(fd);
}

// The rename that replaces an output would put a plain file where a device, a FIFO or a folder
// was (/dev/null among them): such a target is refused before anything is written.
void RefuseNonRegularTarget(const std::string& path) {
  const std::string kind = NonRegularKind(path);
  if (kind.empty()) return;
  throw Error(fmt::format(
      "{}: is {}: an output replaces a regular file, and nothing else; write to a file path", path,
      kind));
}

// A writer killed (SIGKILL, the OOM killer, a power cut) leaves its "<name>.tmp.<pid>.<n>". The
// next write into the folder removes those of processes that no longer exist here and that
// have not been touched for kStaleTempAge: a live writer on another host sharing the folder
// (MPI over NFS) has a pid this host cannot see, and its file is recent. Each folder is looked
// at once per process: a run writes thousands of parts into one.
constexpr auto kStaleTempAge = std::chrono::minutes(10);

// Only the kinds of file this tool writes: a user's own "notes.tmp.12.3" is not touched.
bool IsOurOutput(const std::string& name) {
  for (const char* ext : {".h5", ".hdf5", ".csv", ".md", ".py", ".json", ".txt", ".lock"}) {
    const std::size_t n = std::strlen(ext);
    if (name.size() > n && name.compare(name.size() - n, n, ext) == 0) return true;
  }
  return false;
}

}  // namespace

bool LeftByDeadProcess(const std::filesystem::path& entry, long pid,
                       std::filesystem::file_time_type now) {
  if (pid <= 0 || pid == static_cast<long>(getpid())) return false;
  if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) return false;  // alive, or not ours
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(entry, ec);
  return !ec && now - mtime >= kStaleTempAge;
}

namespace {

void SweepStaleTemporaries(const std::filesystem::path& dir) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert(dir.string()).second) return;
  }
  std::error_code ec;
  std::filesystem::directory_iterator it(dir.empty() ? "." : dir, ec), end;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t at = name.rfind(".tmp.");
    if (at == std::string::npos || !IsOurOutput(name.substr(0, at))) continue;
    // "<pid>.<n>" after ".tmp.", digits only.
    const std::string rest = name.substr(at + 5);
    const std::size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string::npos || dot + 1 == rest.size() ||
        rest.find_first_not_of("0123456789.") != std::string::npos ||
        rest.find('.', dot + 1) != std::string::npos)
      continue;
    long pid = 0;
    const auto [p, perr] = std::from_chars(rest.data(), rest.data() + dot, pid);
    if (perr != std::errc()) continue;
    std::error_code e2;
    if (!std::filesystem::is_regular_file(it->symlink_status(e2)) || e2) continue;
    if (LeftByDeadProcess(it->path(), pid, now)) std::filesystem::remove(it->path(), e2);
  }
}

// The temporary files being written, for RemoveTemporariesOnSignals' handler: fixed slots (a
// handler may not allocate), each free, being filled, or holding a path to unlink.
constexpr int kTempSlots = 32;
constexpr std::size_t kTempPathMax = 4096;
enum : int { kSlotFree = 0, kSlotFilling = 1, kSlotHeld = 2 };
struct TempSlot {
  std::atomic<int> state{kSlotFree};
  std::atomic<unsigned> generation{0};  // bumped at each hold: a handler's copy is checked
  char path[kTempPathMax];
};
TempSlot g_temp_slots[kTempSlots];

// The slot now holding `path`, or -1 (all taken, or a path too long: then a signal leaves it,
// as before, to the next write's sweep).
int HoldTemporary(const std::string& path) {
  if (path.size() >= kTempPathMax) return -1;
  for (int i = 0; i < kTempSlots; ++i) {
    int expected = kSlotFree;
    if (g_temp_slots[i].state.compare_exchange_strong(expected, kSlotFilling)) {
      g_temp_slots[i].generation.fetch_add(1);
      std::memcpy(g_temp_slots[i].path, path.c_str(), path.size() + 1);
      g_temp_slots[i].state.store(kSlotHeld);
      return i;
    }
  }
  return -1;
}

void ReleaseTemporary(int slot) {
  if (slot >= 0) g_temp_slots[slot].state.store(kSlotFree);
}

// The children a signal ends first (SignalKilledChild): pids, 0 where free.
constexpr int kChildSlots = 16;
std::atomic<int> g_child_slots[kChildSlots];

extern "C" void RemoveTemporariesAndEnd(int sig) {
  const int saved_errno = errno;
  for (std::atomic<int>& child : g_child_slots)
    if (const int pid = child.load(); pid > 0) kill(pid, SIGKILL);  // async-signal-safe
  // Another thread may release and refill a slot meanwhile: the path is copied first and
  // unlinked only when the slot held that same path throughout (same generation, still held).
  // Files first, then folders (a scratch folder is held with its files): unlink fails on a
  // folder and rmdir on a file, harmlessly.
  char path[kTempPathMax];
  for (const bool folders : {false, true}) {
    for (TempSlot& slot : g_temp_slots) {
      const unsigned generation = slot.generation.load();
      if (slot.state.load() != kSlotHeld) continue;
      std::memcpy(path, slot.path, kTempPathMax);
      path[kTempPathMax - 1] = '\0';
      if (slot.state.load() == kSlotHeld && slot.generation.load() == generation)
        folders ? rmdir(path) : unlink(path);  // both async-signal-safe
    }
  }
  errno = saved_errno;
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

SignalKilledChild::SignalKilledChild(int pid) : slot_(-1) {
  for (int i = 0; i < kChildSlots && slot_ < 0; ++i) {
    int expected = 0;
    if (g_child_slots[i].compare_exchange_strong(expected, pid)) slot_ = i;
  }
}

SignalKilledChild::~SignalKilledChild() {
  if (slot_ >= 0) g_child_slots[slot_].store(0);
}

SignalRemoved::SignalRemoved(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) slots_.push_back(HoldTemporary(p));
}

SignalRemoved::~SignalRemoved() {
  for (const int slot : slots_) ReleaseTemporary(slot);
}

void ForgetTemporaries() {
  for (TempSlot& slot : g_temp_slots) slot.state.store(kSlotFree);
  for (std::atomic<int>& child : g_child_slots) child.store(0);
}

void RemoveTemporariesOnSignals() {
  struct sigaction sa {};
  sa.sa_handler = RemoveTemporariesAndEnd;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal the caller ignores (nohup's SIGHUP) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

void ReplaceFile(const std::string& path,
                 const std::function<void(const std::string& tmp)>& write) {
  if (path.empty()) throw Error("output path '': must name a file");
  RefuseNulInPath(path);
  RefuseNonRegularTarget(path);
  SweepStaleTemporaries(std::filesystem::path(path).parent_path());
  static std::atomic<unsigned> counter{0};
  const std::string tmp = fmt::format("{}.tmp.{}.{}", path, static_cast<long>(getpid()), counter++);
  std::error_code ec;
  const int slot = HoldTemporary(tmp);
  try {
    RemoveEntryAt(tmp);
    write(tmp);
    SyncFile(tmp);
  } catch (...) {
    std::filesystem::remove(tmp, ec);
    ReleaseTemporary(slot);
    throw;
  }
  std::filesystem::rename(tmp, path, ec);
  ReleaseTemporary(slot);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot replace it with {}: {}", path, tmp, why));
  }
  SyncDir(std::filesystem::path(path).parent_path());
}

void WriteFileAtomically(const std::string& path, std::string_view bytes) {
  ReplaceFile(path, [&](const std::string& tmp) { WriteNewFile(tmp, bytes); });
}

}  // namespace ncp
