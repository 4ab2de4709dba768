// Reading a corrupt file can end the process from inside a library: libfclib calls exit(1) when
// an HDF5 call fails, and libhdf5 itself can crash on a corrupt heap (variable-length strings).
// ProbeRead runs a read once in a child process first; only when the child finishes does the
// caller read in-process, so a file that would end the process becomes a one-line ncp::Error.
//
// The child is forked for each read, so it holds the caller's exact state (libhdf5's free lists
// and caches among it) and reads as the caller then will: a read that would crash the caller
// crashes the child first. After the read the child returns libhdf5's free lists to malloc, so a
// block that the read released twice (no fault yet, a double free much later) ends it too. A
// child kept across reads (one fork for many files) drifts from the caller: the dataset fuzzer
// found a corrupt attribute table on which libhdf5 crashed in the caller (H5A__close, a
// history-dependent fault) after the long-lived child had read it whole.
// The fork costs about a millisecond (more under ASan) beside reads that take milliseconds.
//
// In a sanitized build (tests under `make sanitize`, the fuzzers) a sanitizer's report on the
// probed read is a bug in the suite's code, not a corrupt file: the report is printed and the
// caller aborts. A fault (a crash inside libhdf5) ends the child plainly in every build.
#pragma once

#include <string>

namespace ncp {

// What the probe runs: a plain function (it is called in the forked child, with the path).
using ProbeFn = void (*)(const std::string& path);

// Runs `read(path)` in a forked child with its output discarded. Returns when it finished
// without error. Throws ncp::Error with the child's own message when `read` threw one, and
// "<path>: reading it ended the reader (...): a corrupt file" when the read ended the child
// (exit, crash) or ran past `timeout_s`. Where fork is unavailable it returns and the caller
// reads unguarded. Safe to call from several threads (one probe at a time).
void ProbeRead(const std::string& path, ProbeFn read, double timeout_s = 300.0);

// A time limit for probing `path`: reading takes milliseconds for a small file and well under a
// second per MB, so a child still busy after 3 s (SetProbeTimeBase) plus 2 s per MB is looping
// inside a library on a corrupt file (libhdf5 does, e.g. in H5Lexists on a broken symbol table).
double ProbeTimeLimit(const std::string& path);

// The 3 s that ProbeTimeLimit allows any file. The fuzzers lower it (a small input reads in
// milliseconds even under the sanitizers, and one looping input must not cost seconds).
void SetProbeTimeBase(double seconds);

}  // namespace ncp
