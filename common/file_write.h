// Files written whole or not at all. A full disk, a file-size limit or an I/O error leaves no
// partial file and throws Error naming the file and the cause; nothing is ever written through a
// link planted at the name (in a shared folder such as /tmp that would overwrite another file).
// HDF5 outputs are built in memory and written here (h5_util.h, results_store.cc): libhdf5
// crashes in its own error path when a write fails inside it.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ncp {

// Creates the folders above `path` that do not exist (every command creates the folders of its
// outputs); throws Error naming the folder when one cannot be made (a file of that name, no
// permission).
void CreateParentFolders(const std::string& path);

// Unlinks what stands at `path` unless it is a folder: a stale file, or a link itself (never
// its target). What creates a file there exclusively next cannot be redirected through a link.
void RemoveEntryAt(const std::string& path);

// Creates `path` (what stands at the name, a stale file or a link, is unlinked first; the create
// is exclusive) and writes `bytes` to it, synced. On failure the file is removed.
void WriteNewFile(const std::string& path, std::string_view bytes);

// The one way a file is replaced: `write(tmp)` creates a temporary file beside `path` (a name of
// this process and this call, so two writers of one output never share it), which is synced and
// renamed over `path`; readers of `path` see the old contents or the new, never a part. On any
// failure the temporary file is removed and `path` is left as it was.
void ReplaceFile(const std::string& path, const std::function<void(const std::string& tmp)>& write);

// ReplaceFile with `bytes` (WriteNewFile).
void WriteFileAtomically(const std::string& path, std::string_view bytes);

// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files ReplaceFile is writing before the
// process ends by the signal as it would have (a Ctrl-C left a partial "<name>.tmp.<pid>.<n>").
// For the command line; the Python module leaves SIGINT to Python.
void RemoveTemporariesOnSignals();

// Scratch paths a signal removes as it does ReplaceFile's temporaries (files first, then
// folders), while the object lives; its end only stops holding them (the owner removes them).
// For the folder a child process's job is written to (harness/isolated_run.cc).
class SignalRemoved {
 public:
  explicit SignalRemoved(const std::vector<std::string>& paths);
  ~SignalRemoved();
  SignalRemoved(const SignalRemoved&) = delete;
  SignalRemoved& operator=(const SignalRemoved&) = delete;

 private:
  std::vector<int> slots_;
};

// While one lives, a signal that ends this process (the one RemoveTemporariesOnSignals handles)
// first ends the child process `pid` with SIGKILL: a job run as a child (harness/isolated_run.cc)
// does not run on after the run that waits for it (mpirun's SIGTERM, a scheduler's).
class SignalKilledChild {
 public:
  explicit SignalKilledChild(int pid);
  ~SignalKilledChild();
  SignalKilledChild(const SignalKilledChild&) = delete;
  SignalKilledChild& operator=(const SignalKilledChild&) = delete;

 private:
  int slot_;
};

// True when `entry` (a scratch file or folder named after process `pid`) was left by a process
// that no longer exists on this host and has not been touched for ten minutes: safe to remove
// (a live writer on another host sharing the folder has a recent entry).
bool LeftByDeadProcess(const std::filesystem::path& entry, long pid,
                       std::filesystem::file_time_type now);

// In a forked child: the temporary files are the parent's, not the child's to remove.
void ForgetTemporaries();

}  // namespace ncp
