// Runs one job in a separate process with a memory cap, for solvers from peer libraries that can
// end the process or exhaust the machine (SolverEntry::isolated: Siconos Numerics, whose MUMPS
// calls MPI_Abort on some problems and whose PROX reached 7 GB on a 60-row one). Whatever the
// job does, the caller gets a row: the job's own, or `failed` with what ended it.
//
// The job runs in a fresh `ncpbench isolated-job <dir>` (fork + exec: OpenMP's thread pool and
// MPI's state do not survive a bare fork), reading the problem, the job and the warm start that
// the parent wrote to <dir>, writing its row and solution there.
#pragma once

#include <string>

#include "harness/runner.h"

namespace ncp {

// The cap on the job's address space: half the machine's memory (none under AddressSanitizer,
// which reserves terabytes of address space).
double IsolatedMemoryCapBytes();

// Called by main() of the `ncpbench` executable with its own path: isolation needs an executable
// that has the `isolated-job` command; the Python module calls it with the executable built
// beside it (or refuses isolated entries, RefuseIsolated). Elsewhere (the unit tests) isolated
// entries run in-process.
void EnableIsolation(const std::string& executable);

// Where isolation is expected but no executable was found (the Python module): an isolated entry
// is refused with Error "solver <name>: runs in a process of its own …, and <why>" instead of
// running in-process, where a peer library's abort would end the host program.
void RefuseIsolated(const std::string& why);

// RunOne in its own process when isolation is enabled, else RunOne itself; used by RunOne.
RunRecord RunIsolated(const ContactProblem& p, const Evaluator& ev, const SolverJob& job,
                      const RunOptions& opt, const WarmStart* warm, int repeat,
                      WarmStart* solution);

// The `isolated-job` command: runs the job described in `dir`; returns the exit code.
int RunIsolatedJob(const std::string& dir);

// True while an isolated job runs (RunOne then runs it itself instead of isolating it again).
bool InIsolatedJob();

}  // namespace ncp
