#include "harness/distribute/work_queue.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fmt/format.h>
#include <mutex>
#include <thread>

#include "harness/distribute/cluster.h"
#include "harness/progress.h"

#ifdef NCPBENCH_HAVE_MPI
#include <mpi.h>
#endif

namespace ncp {
namespace {

using Clock = std::chrono::steady_clock;

class LocalQueue : public WorkQueue {
 public:
  explicit LocalQueue(std::vector<long> pending) : pending_(std::move(pending)) {}
  long Next(int) override { return next_ < pending_.size() ? pending_[next_++] : -1; }

 private:
  std::vector<long> pending_;
  std::size_t next_ = 0;
};

#ifdef NCPBENCH_HAVE_MPI
constexpr int kTagRequest = 7101;  // worker → rank 0: jobs done since the last request
constexpr int kTagAssign = 7102;   // rank 0 → worker: next unit or −1

// Rank 0: the list, a lock shared by its own main thread and the thread that serves the others.
class LeaderQueue : public WorkQueue {
 public:
  LeaderQueue(UnitCounts counts, bool quiet)
      : counts_(std::move(counts)), quiet_(quiet), start_(Clock::now()) {
    server_ = std::thread([this] { Serve(); });
  }
  ~LeaderQueue() override {
    // On an error the other ranks are ended by Cluster::Abort; do not wait for them here.
    if (std::uncaught_exceptions() > 0) stop_ = true;
    server_.join();
    if (!quiet_ && !stop_) Report(/*final=*/true);
  }
  long Next(int jobs_done) override { return Take(jobs_done); }

 private:
  long Take(int jobs_done) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ += jobs_done;
    if (!quiet_ && jobs_done > 0) Report(false);
    return next_ < counts_.pending.size() ? counts_.pending[next_++] : -1;
  }

  // Called with mutex_ held (or after the server ended): at most one line a second.
  void Report(bool final) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (!final && elapsed - last_report_ < 1.0) return;
    last_report_ = elapsed;
    std::fprintf(stderr, "progress: %s (%d ranks)\n",
                 ProgressText(done_, counts_.total_jobs, elapsed).c_str(), Cluster::size());
  }

  // Answers requests until every other rank has been told there is nothing left. Polls with
  // short sleeps so that this thread takes no core from the solver on rank 0's main thread.
  void Serve() {
    int finished = 0;
    while (finished < Cluster::size() - 1 && !stop_) {
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kTagRequest, MPI_COMM_WORLD, &flag, &status);
      if (!flag) {
        std::this_thread::sleep_for(std::chrono::microseconds(500));
        continue;
      }
      int jobs_done = 0;
      MPI_Recv(&jobs_done, 1, MPI_INT, status.MPI_SOURCE, kTagRequest, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      long unit = Take(jobs_done);
      MPI_Send(&unit, 1, MPI_LONG, status.MPI_SOURCE, kTagAssign, MPI_COMM_WORLD);
      if (unit < 0) ++finished;
    }
  }

  UnitCounts counts_;
  bool quiet_;
  Clock::time_point start_;
  std::mutex mutex_;
  std::size_t next_ = 0;
  long done_ = 0;
  double last_report_ = -1.0;
  std::atomic<bool> stop_{false};
  std::thread server_;
};

class FollowerQueue : public WorkQueue {
 public:
  long Next(int jobs_done) override {
    long unit = -1;
    MPI_Send(&jobs_done, 1, MPI_INT, 0, kTagRequest, MPI_COMM_WORLD);
    MPI_Recv(&unit, 1, MPI_LONG, 0, kTagAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return unit;
  }
};
#endif

}  // namespace

std::unique_ptr<WorkQueue> MakeWorkQueue(UnitCounts counts, bool quiet) {
#ifdef NCPBENCH_HAVE_MPI
  if (Cluster::active()) {
    if (Cluster::leader()) return std::make_unique<LeaderQueue>(std::move(counts), quiet);
    return std::make_unique<FollowerQueue>();
  }
#endif
  return std::make_unique<LocalQueue>(std::move(counts.pending));
}

}  // namespace ncp
