// libFuzzer target: see fuzz/entries.h.
#include <cstddef>
#include <cstdint>

#include "fuzz/entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ncp::fuzz::Options(data, size);
  return 0;
}
