// The pack of subadmm-gpu's upload: host arrays copied into the pinned staging buffer by several
// threads (one core's copy bandwidth is a fraction of the memory's). A C++ file, so that OpenMP
// applies (nvcc compiles the .cu files without it).
#pragma once

#include <cstddef>
#include <vector>

namespace ncp::gpu {

struct HostCopy {
  std::size_t offset;  // in the destination
  const unsigned char* from;
  std::size_t bytes;
};

// Copies every piece to dst + offset, split into 256 KiB parts over `threads` threads from 2 MiB
// in all (one thread below). `parts`
// is scratch kept by the caller (no allocation once grown).
void CopyPieces(unsigned char* dst, const std::vector<HostCopy>& pieces, int threads,
                std::vector<HostCopy>& parts);

}  // namespace ncp::gpu
