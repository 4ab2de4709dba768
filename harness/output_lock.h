// One writer per output at a time: an exclusive flock on "<output>.lock", which the kernel
// releases when the process ends however it ends, so a killed run never blocks a rerun. The lock
// file holds the owner's pid, which a refused writer is shown.
#pragma once

#include <string>
#include <utility>

namespace ncp {

class OutputLock {
 public:
  // Takes the lock (creating the output's folders). Throws ncp::Error naming `output` when
  // another process holds it, or when the lock file is a link, a folder, a device or a file of
  // several names (a planted hard link would have its target truncated by the pid).
  explicit OutputLock(std::string output);
  ~OutputLock();  // Release(false)
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  // Releases the lock now; with `remove_file`, unlinks the lock file first (the output is
  // finished, or nothing of a run was left beside it).
  void Release(bool remove_file);
  bool held() const { return fd_ >= 0; }

 private:
  bool TryTake(const std::string& lock);  // false: the lock file was replaced meanwhile

  std::string output_;
  int fd_ = -1;
};

// The lock of a command that writes its output whole at its end (generate, convert, simulate
// --record): held while it works, so that a run writing the same file and it cannot replace
// each other's output. The lock file goes when the command returns or throws (nothing of it is
// left to resume); one ended by a signal leaves it, harmless: the flock went with the process.
class WholeOutputLock {
 public:
  explicit WholeOutputLock(std::string output) : lock_(std::move(output)) {}
  ~WholeOutputLock() { lock_.Release(true); }
  WholeOutputLock(const WholeOutputLock&) = delete;
  WholeOutputLock& operator=(const WholeOutputLock&) = delete;

 private:
  OutputLock lock_;
};

}  // namespace ncp
