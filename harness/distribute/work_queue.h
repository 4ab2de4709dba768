// Hands out units of work (indices into a list every process builds identically from the same
// inputs) one at a time, so a long unit never leaves the other processes idle. In one process
// it is a counter; in an MPI job rank 0 keeps the list and answers the other ranks' requests
// from a second thread while its own main thread solves too.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ncp {

struct UnitCounts {
  std::vector<long> pending;  // units to run, in order (rank 0's view; others may pass {})
  long total_jobs = 0;        // jobs in those units, for the progress line
};

class WorkQueue {
 public:
  virtual ~WorkQueue() = default;
  // The next unit, or −1 when every unit has been handed out. `jobs_done`: jobs the caller
  // finished since its previous call (for the progress count).
  virtual long Next(int jobs_done) = 0;
};

// One process: the pending units in order. MPI job (Cluster::active()): rank 0 distributes
// `counts.pending` and, unless quiet, prints "progress: done/total jobs, elapsed, left" lines.
std::unique_ptr<WorkQueue> MakeWorkQueue(UnitCounts counts, bool quiet);

}  // namespace ncp
