#include "gpu/cuda/workspace_pool.h"

#include <mutex>
#include <vector>

namespace ncp::gpu {
namespace {

struct Pool {
  std::mutex mutex;
  std::vector<std::unique_ptr<GpuWorkspace>> free;
};

// Never destroyed: at exit the CUDA runtime may already be unloaded, and freeing device memory
// then fails; the driver takes everything back with the process.
Pool& ThePool() {
  static Pool* pool = new Pool;
  return *pool;
}

}  // namespace

void ReturnWorkspace::operator()(GpuWorkspace* w) const {
  if (!w) return;
  Pool& pool = ThePool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  pool.free.emplace_back(w);
}

WorkspaceLease TakeWorkspace() {
  Pool& pool = ThePool();
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    if (!pool.free.empty()) {
      GpuWorkspace* w = pool.free.back().release();
      pool.free.pop_back();
      return WorkspaceLease(w);
    }
  }
  return WorkspaceLease(new GpuWorkspace);
}

}  // namespace ncp::gpu
