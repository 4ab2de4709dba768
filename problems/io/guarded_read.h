// Reading a corrupt file can end the process from inside a library: libfclib calls exit(1) when
// an HDF5 call fails, and libhdf5 itself can crash on a corrupt heap (variable-length strings).
// Worse, a read that ends normally can leave libhdf5's heap damaged without a fault (blocks put
// twice on its free lists, chunk headers overwritten), and the process fails much later: the
// dataset fuzzer saw "double free" at libhdf5's shutdown and "corrupted double-linked list" in a
// later malloc when the caller had read a file again after a child had read it first.
//
// So a file that did not come from this process is read only in a forked child: TrustedCopy has
// the child read and validate the file and write what it read with the suite's own writer to a
// fresh file; the caller reads that copy and never opens the untrusted file. A file that ends
// or damages the child becomes a one-line ncp::Error. After the read the child also returns
// libhdf5's free lists to malloc, so that a block released twice ends it there.
//
// A child is forked for each read, from the caller's state at that moment; the fork costs about
// a millisecond (more under ASan) beside reads that take milliseconds. Files of the suite's own
// writer (a resumed run's parts) are read directly: thousands of forks would dominate a resume.
//
// In a sanitized build (tests under `make sanitize`, the fuzzers) a sanitizer's report on the
// probed read is a bug in the suite's code, not a corrupt file: the report is printed and the
// caller aborts. A fault (a crash inside libhdf5) ends the child plainly in every build.
#pragma once

#include <string>

namespace ncp {

// What a trusted copy is made by: reads `in` and writes what it read to `out` with the suite's
// own writer (called in the forked child).
using ConvertFn = void (*)(const std::string& in, const std::string& out);

// The copy of `in` at `out` could not be written (a full folder, a file-size limit): throws Error
// naming the input, the cause, and where the copy goes when the folder is full.
[[noreturn]] void ThrowCopyNotWritten(const std::string& in, const std::string& out,
                                      const std::string& what, const std::string& cause);

// Runs `convert(path, copy)` in a forked child with its output discarded; the copy lives in a
// private folder ($TMPDIR, else /dev/shm where there is one), removed with the object. Throws
// ncp::Error with the child's own message when `convert` threw one, and "<path>: reading it
// ended the reader (...): a corrupt file" when the read ended the child (exit, crash) or ran
// past `timeout_s`. Where fork is unavailable the conversion runs in the caller. Safe to use
// from several threads (one probe at a time).
class TrustedCopy {
 public:
  TrustedCopy(const std::string& path, ConvertFn convert, double timeout_s = 300.0);
  ~TrustedCopy();
  TrustedCopy(const TrustedCopy&) = delete;
  TrustedCopy& operator=(const TrustedCopy&) = delete;
  const std::string& path() const { return path_; }  // the copy

 private:
  void Remove();
  std::string folder_, path_;
};

// A time limit for probing `path`: reading takes milliseconds for a small file and well under a
// second per MB, so a child still busy after 3 s (SetProbeTimeBase) plus 2 s per MB is looping
// inside a library on a corrupt file (libhdf5 does, e.g. in H5Lexists on a broken symbol table).
double ProbeTimeLimit(const std::string& path);

// The 3 s that ProbeTimeLimit allows any file. The fuzzers lower it (a small input reads in
// milliseconds even under the sanitizers, and one looping input must not cost seconds).
void SetProbeTimeBase(double seconds);

}  // namespace ncp
