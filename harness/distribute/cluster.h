// The processes of one command: a single process, or the ranks of an MPI job when the command
// was started by mpirun/srun (Open MPI's or PMIx's environment says so). MPI is initialised only
// then, so a plain `ncpbench` never pays for it and runs where no MPI is installed.
#pragma once

#include <string>

#include "common/error.h"

namespace ncp {

// An error every rank raised at the same collective step (SameOnEveryRank was false on all of
// them): main() prints it once, from rank 0, and every rank ends normally with exit code 2, with
// no MPI_Abort (whose banner would bury the one line).
class EveryRankError : public Error {
 public:
  using Error::Error;
};

class Cluster {
 public:
  // Initialises MPI when launched as part of an MPI job and the build has MPI; throws ncp::Error
  // when launched so but built without it (N copies would each run everything).
  static void Init(int* argc, char*** argv);
  // Releases MPI after a sleeping barrier (no rank spins on a core while others still work).
  static void Finalize();
  // Ends every rank at once (a one-line error was printed): no rank waits on a dead peer.
  [[noreturn]] static void Abort(int code);

  static bool active();  // MPI initialised with more than one rank
  static int rank();     // 0 without MPI
  static int size();     // 1 without MPI
  static bool leader() { return rank() == 0; }
  // Ranks of this job on this host (1 without MPI).
  static int local_size();

  // Blocks until every rank arrives, sleeping between checks.
  static void Barrier();
  // The sum over the ranks, on rank 0 (others get their own value back); sleeps while waiting.
  static long SumToLeader(long value);
  // Rank 0's value on every rank.
  static int Broadcast(int value);
  // True on every rank when every rank passed the same value (e.g. a hash of its arguments or
  // of its planned jobs); a collective: every rank must call it. True without MPI.
  static bool SameOnEveryRank(unsigned long long value);

  // Hostname of this machine.
  static std::string HostName();
};

// "rank 2 of 4" (MPI ranks count from 0), "shard 1/3", "shard 1/3 rank 2 of 4", or "" for a plain
// single process: which worker of a distributed campaign produced a row.
std::string WorkerLabel(int shard_index, int shard_count);

}  // namespace ncp
