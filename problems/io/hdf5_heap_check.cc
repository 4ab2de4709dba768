#include "problems/io/hdf5_heap_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace ncp {
namespace {

constexpr std::string_view kSuperblockSignature = "\x89HDF\r\n\x1a\n";
constexpr std::string_view kHeapSignature = "HEAP";
constexpr std::uint64_t kFreeListEnd = 1;  // H5HL_FREE_NULL: the end of the free list on disk
// A heap's data block holds object names: one larger than this is not walked (libhdf5 reads
// the whole block first; none of the suite's files comes near).
constexpr std::uint64_t kMaxHeapData = std::uint64_t{64} << 20;

// Little-endian unsigned integer of `width` bytes (HDF5's offsets and lengths).
std::uint64_t Decode(const char* p, int width) {
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

bool ReadAt(std::ifstream& in, std::uint64_t at, char* out, std::size_t n) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(at));
  in.read(out, static_cast<std::streamsize>(n));
  return static_cast<std::size_t>(in.gcount()) == n;
}

struct Layout {
  std::uint64_t base = 0;  // where the superblock is: addresses count from there
  int offsets = 8;         // bytes of an address
  int lengths = 8;         // bytes of a length
};

// The superblock sits at 0, 512, 1024, 2048, ... (after a user block).
bool FindSuperblock(std::ifstream& in, std::uint64_t file_size, Layout& out) {
  for (std::uint64_t at = 0; at + 16 <= file_size; at = at == 0 ? 512 : at * 2) {
    std::array<char, 16> b{};
    if (!ReadAt(in, at, b.data(), b.size())) return false;
    if (std::string_view(b.data(), 8) != kSuperblockSignature) continue;
    const int version = static_cast<unsigned char>(b[8]);
    // Versions 0 and 1 keep the sizes at bytes 13 and 14, versions 2 and 3 at 9 and 10.
    const int at_sizes = version <= 1 ? 13 : 9;
    out = {at, static_cast<unsigned char>(b[at_sizes]),
           static_cast<unsigned char>(b[at_sizes + 1])};
    const auto valid = [](int w) { return w == 2 || w == 4 || w == 8; };
    return valid(out.offsets) && valid(out.lengths);
  }
  return false;
}

// Follows one heap's free list as libhdf5 does; the block offset where it starts to repeat, or
// nothing (-1) when libhdf5 stops by itself (the end marker, or one of its own range checks).
std::int64_t LoopingBlock(const std::vector<char>& data, std::uint64_t head, int lengths) {
  std::vector<bool> seen(data.size(), false);
  for (std::uint64_t at = head; at != kFreeListEnd;) {
    if (at >= data.size()) return -1;                    // "bad heap free list"
    if (seen[at]) return static_cast<std::int64_t>(at);  // libhdf5 would go round forever
    if (at + 2 * static_cast<std::uint64_t>(lengths) > data.size()) return -1;
    seen[at] = true;
    const std::uint64_t next = Decode(data.data() + at, lengths);
    const std::uint64_t size = Decode(data.data() + at + lengths, lengths);
    if (next == 0) return -1;                // "free block size is zero?"
    if (size > data.size() - at) return -1;  // "bad heap free list"
    at = next;
  }
  return -1;
}

}  // namespace

void CheckLocalHeapFreeLists(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  if (end <= 0) return;
  const auto file_size = static_cast<std::uint64_t>(end);
  Layout layout;
  if (!FindSuperblock(in, file_size, layout)) return;
  // Every "HEAP" signature: a heap's prefix is the signature, version 0, three reserved bytes,
  // the data block's size and free-list head (lengths) and the data block's address (offset).
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  const std::size_t overlap = kHeapSignature.size() - 1;
  // Sized to the file: a fresh megabyte zeroed per probe is a quarter of a small read's cost.
  std::vector<char> chunk(
      static_cast<std::size_t>(std::min<std::uint64_t>(kChunk + overlap, file_size)));
  for (std::uint64_t start = 0; start < file_size; start += kChunk) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kChunk + overlap, file_size - start));
    if (!ReadAt(in, start, chunk.data(), n)) return;
    const std::string_view view(chunk.data(), n);
    for (std::size_t hit = view.find(kHeapSignature); hit != std::string_view::npos;
         hit = view.find(kHeapSignature, hit + 1)) {
      const std::uint64_t at = start + hit;
      std::array<char, 8 + 3 * 8> prefix{};
      const std::size_t prefix_bytes = 8 + 2 * layout.lengths + layout.offsets;
      if (!ReadAt(in, at, prefix.data(), prefix_bytes) || prefix[4] != 0) continue;
      const std::uint64_t data_size = Decode(prefix.data() + 8, layout.lengths);
      const std::uint64_t head = Decode(prefix.data() + 8 + layout.lengths, layout.lengths);
      const std::uint64_t address =
          Decode(prefix.data() + 8 + 2 * layout.lengths, layout.offsets) + layout.base;
      if (head == kFreeListEnd || data_size == 0 || data_size > kMaxHeapData ||
          address > file_size || data_size > file_size - address) {
        continue;  // no free list, or one libhdf5 refuses before walking it
      }
      std::vector<char> data(static_cast<std::size_t>(data_size));
      if (!ReadAt(in, address, data.data(), data.size())) continue;
      const std::int64_t block = LoopingBlock(data, head, layout.lengths);
      if (block >= 0) {
        throw Error(fmt::format(
            "{}: the local heap at byte {} has a free list that loops (back to its block at "
            "offset {}): a corrupt file",
            path, at, block));
      }
    }
  }
}

}  // namespace ncp
