// Reading a corrupt file can end the process from inside a library: libfclib calls exit(1) when
// an HDF5 call fails, and libhdf5 itself can crash on a corrupt heap (variable-length strings).
// ProbeRead runs a read once in a child process first; only when the child finishes does the
// caller read in-process, so a file that would end the process becomes a one-line ncp::Error.
//
// The child is a probe server: forked at the first probe and kept for the next ones, it reads
// one file per request, so a command or a fuzzer that reads many files pays for one fork, not
// one per file. A server that crashed, hung or was ended is replaced by a fresh one; a server
// that had read earlier files and died by a signal on this one is tried once more, fresh, before
// the file is called corrupt (an earlier file may have left the library's state broken).
//
// In a sanitized build (tests under `make sanitize`, the fuzzers) a sanitizer's report on the
// probed read is a bug in the suite's code, not a corrupt file: the report is printed and the
// caller aborts. A fault (a crash inside libhdf5) ends the child plainly in every build.
#pragma once

#include <string>

namespace ncp {

// What the probe runs: a plain function (it is called in the forked child, with the path).
using ProbeFn = void (*)(const std::string& path);

// Runs `read(path)` in the probe server with its output discarded. Returns when it finished
// without error. Throws ncp::Error with the child's own message when `read` threw one, and
// "<path>: reading it ended the reader (...): a corrupt file" when the read ended the child
// (exit, crash) or ran past `timeout_s`. Where fork is unavailable it returns and the caller
// reads unguarded. Safe to call from several threads (one probe at a time).
void ProbeRead(const std::string& path, ProbeFn read, double timeout_s = 300.0);

// A time limit for probing `path`: reading takes milliseconds for a small file and well under a
// second per MB, so a child still busy after 3 s (SetProbeTimeBase) plus 2 s per MB is looping inside a library on
// a corrupt file (libhdf5 does, e.g. in H5Lexists on a broken symbol table).
double ProbeTimeLimit(const std::string& path);

// The 3 s that ProbeTimeLimit allows any file. The fuzzers lower it (a small input reads in
// milliseconds even under the sanitizers, and one looping input must not cost seconds).
void SetProbeTimeBase(double seconds);

// The probe server's process id, −1 when none runs (tests: one server serves many reads).
int ProbeServerPid();

}  // namespace ncp
