#include "harness/output_lock.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"
#include "common/file_write.h"

namespace ncp {

bool OutputLock::TryTake(const std::string& lock) {
  fd_ = open(lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd_ < 0) {
    throw Error(
        fmt::format("{}: cannot create the lock file '{}': {}", output_, lock,
                    errno == ELOOP ? "it is a symbolic link (remove it)" : std::strerror(errno)));
  }
  struct stat lock_stat {};
  const bool regular = fstat(fd_, &lock_stat) == 0 && S_ISREG(lock_stat.st_mode);
  if (regular && lock_stat.st_nlink == 0) {
    close(fd_);  // removed by a run that just finished: open the new one
    fd_ = -1;
    return false;
  }
  if (!regular || lock_stat.st_nlink != 1) {
    close(fd_);
    fd_ = -1;
    throw Error(
        fmt::format("{}: the lock file '{}' is not a plain file of one name (a link, a "
                    "folder or a device): remove it",
                    output_, lock));
  }
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char buf[32] = {};
    const ssize_t n = pread(fd_, buf, sizeof buf - 1, 0);
    close(fd_);
    fd_ = -1;
    throw Error(
        fmt::format("{}: in use by another ncpbench run (pid {}): wait for it to end or "
                    "write to another file",
                    output_, n > 0 ? std::string(buf, std::strcspn(buf, "\n")) : "?"));
  }
  struct stat at_name {};
  if (stat(lock.c_str(), &at_name) != 0 || at_name.st_ino != lock_stat.st_ino ||
      at_name.st_dev != lock_stat.st_dev) {
    close(fd_);
    fd_ = -1;
    return false;
  }
  return true;
}

OutputLock::OutputLock(std::string output) : output_(std::move(output)) {
  const std::string lock = output_ + ".lock";
  CreateParentFolders(output_);  // the lock is the first file in a new output folder
  // A run that finishes removes the lock file; one that opened the file just before that
  // removal would hold a lock on a file no longer at the name: it tries again.
  for (int attempt = 0;; ++attempt) {
    if (TryTake(lock)) break;
    if (attempt == 8)
      throw Error(fmt::format("{}: the lock file '{}' keeps being replaced", output_, lock));
  }
  const std::string pid = fmt::format("{}\n", static_cast<long>(getpid()));
  if (ftruncate(fd_, 0) == 0 && pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // The pid is only shown to a refused run; the lock itself holds.
  }
}

OutputLock::~OutputLock() { Release(false); }

void OutputLock::Release(bool remove_file) {
  if (fd_ < 0) return;
  if (remove_file) unlink((output_ + ".lock").c_str());
  close(fd_);  // releases the lock
  fd_ = -1;
}

}  // namespace ncp
