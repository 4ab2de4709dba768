#include "harness/memory_cap.h"

#include <sys/resource.h>
#include <unistd.h>

namespace ncp {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

}  // namespace

double MemoryCapBytes(double fraction) {
  if (kAddressSanitizer) return 0.0;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? fraction * static_cast<double>(pages) * static_cast<double>(page)
                               : 0.0;
}

void CapAddressSpace(double bytes) {
  if (!(bytes > 0)) return;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0) return;
  const rlim_t cap = static_cast<rlim_t>(bytes);
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur <= cap) return;
  limit.rlim_cur = cap;
  setrlimit(RLIMIT_AS, &limit);  // best effort: without it the OOM killer decides, as before
}

}  // namespace ncp
