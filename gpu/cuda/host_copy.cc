#include "gpu/cuda/host_copy.h"

#include <algorithm>
#include <cstring>

namespace ncp::gpu {

void CopyPieces(unsigned char* dst, const std::vector<HostCopy>& pieces, int threads,
                std::vector<HostCopy>& parts) {
  constexpr std::size_t kPart = 256 << 10;
  // Below a few MB one thread copies faster than a team wakes up (on a virtual machine a parallel
  // region after an idle spell took 0.6 ms: results/measured/README.md).
  constexpr std::size_t kParallelBytes = 2 << 20;
  std::size_t total = 0;
  parts.clear();
  for (const HostCopy& p : pieces) total += p.bytes;
  if (total < kParallelBytes) threads = 1;
  for (const HostCopy& p : pieces)
    for (std::size_t at = 0; at < p.bytes; at += kPart)
      parts.push_back({p.offset + at, p.from + at, std::min(kPart, p.bytes - at)});
  const int count = static_cast<int>(parts.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads)) if (threads > 1)
  for (int k = 0; k < count; ++k) std::memcpy(dst + parts[k].offset, parts[k].from, parts[k].bytes);
}

}  // namespace ncp::gpu
