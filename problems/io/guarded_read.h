// Reading a corrupt file can end the process from inside a library: libfclib calls exit(1) when
// an HDF5 call fails, and libhdf5 itself can crash on a corrupt heap (variable-length strings).
// ProbeRead runs a read once in a child process first; only when the child finishes does the
// caller read in-process, so a file that would end the process becomes a one-line ncp::Error.
#pragma once

#include <functional>
#include <string>

namespace ncp {

// Runs `read` in a forked child with stdout and stderr discarded. Returns when it finished
// without error. Throws ncp::Error with the child's own message when `read` threw one, and
// "<path>: reading it ended the reader (...): a corrupt file" when the child exited, crashed or
// ran past `timeout_s`. Where fork is unavailable it returns and the caller reads unguarded.
void ProbeRead(const std::string& path, const std::function<void()>& read,
               double timeout_s = 300.0);

// A time limit for probing `path`: reading takes well under a second per MB, so a child still
// busy after 10 s plus 2 s per MB is looping inside a library on a corrupt file.
double ProbeTimeLimit(const std::string& path);

}  // namespace ncp
