#include "harness/distribute/cluster.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <thread>

#include "common/error.h"

#ifdef NCPBENCH_HAVE_MPI
#include <mpi.h>
#endif

namespace ncp {
namespace {

bool g_active = false;
int g_rank = 0, g_size = 1, g_local_size = 1;

// mpirun (Open MPI), srun and other PMIx launchers export one of these to each rank.
bool LaunchedByMpi() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(var) != nullptr) return true;
  }
  return false;
}

}  // namespace

void Cluster::Init(int* argc, char*** argv) {
  if (!LaunchedByMpi()) return;
#ifdef NCPBENCH_HAVE_MPI
  int provided = 0;
  // Rank 0 hands out jobs from a second thread while its main thread solves; only that thread
  // calls MPI meanwhile, so serialized calls suffice.
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw Error(fmt::format("MPI thread level = {}: needs MPI_THREAD_SERIALIZED ({})", provided,
                            MPI_THREAD_SERIALIZED));
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &g_local_size);
  MPI_Comm_free(&local);
  g_active = true;
#else
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size != nullptr && std::atoi(size) > 1)
    throw Error(
        "mpirun: this ncpbench was built without MPI (install libopenmpi-dev and rebuild); "
        "every rank would run every job");
#endif
}

void Cluster::Finalize() {
#ifdef NCPBENCH_HAVE_MPI
  if (!g_active) return;
  Barrier();
  MPI_Finalize();
  g_active = false;
#endif
}

void Cluster::Abort(int code) {
#ifdef NCPBENCH_HAVE_MPI
  if (g_active && g_size > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

bool Cluster::active() { return g_active && g_size > 1; }
int Cluster::rank() { return g_rank; }
int Cluster::size() { return g_size; }
int Cluster::local_size() { return g_local_size; }

#ifdef NCPBENCH_HAVE_MPI
namespace {
// Waits for a nonblocking collective with short sleeps: a rank that arrives early does not spin
// on a core that a rank still solving needs.
void SleepUntilDone(MPI_Request& request) {
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}
}  // namespace
#endif

void Cluster::Barrier() {
#ifdef NCPBENCH_HAVE_MPI
  if (!g_active) return;
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  SleepUntilDone(request);
#endif
}

long Cluster::SumToLeader(long value) {
#ifdef NCPBENCH_HAVE_MPI
  if (!g_active) return value;
  long sum = 0;
  MPI_Request request;
  MPI_Ireduce(&value, &sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD, &request);
  SleepUntilDone(request);
  return g_rank == 0 ? sum : value;
#else
  return value;
#endif
}

int Cluster::Broadcast(int value) {
#ifdef NCPBENCH_HAVE_MPI
  if (g_active) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  return value;
}

bool Cluster::SameOnEveryRank(unsigned long long value) {
#ifdef NCPBENCH_HAVE_MPI
  if (!g_active) return true;
  unsigned long long low = 0, high = 0;
  MPI_Allreduce(&value, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return low == high;
#else
  (void)value;
  return true;
#endif
}

std::string Cluster::HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string WorkerLabel(int shard_index, int shard_count) {
  std::string label;
  if (shard_count > 1) label = fmt::format("shard {}/{}", shard_index, shard_count);
  if (Cluster::active())
    label +=
        fmt::format("{}rank {} of {}", label.empty() ? "" : " ", Cluster::rank(), Cluster::size());
  return label;
}

}  // namespace ncp
