// The address-space cap: an allocation past it throws std::bad_alloc (reported in one line)
// instead of the OOM killer ending the process; the cap is never raised.
#include "harness/memory_cap.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <new>

namespace ncp {
namespace {

TEST(MemoryCap, IsAFractionOfThePhysicalMemory) {
  const double all = MemoryCapBytes(1.0);
  if (all == 0.0) GTEST_SKIP() << "no cap under AddressSanitizer";
  EXPECT_GT(all, 1e8);
  EXPECT_DOUBLE_EQ(MemoryCapBytes(0.5), 0.5 * all);
}

// In a child process: the cap applies to the whole process.
TEST(MemoryCap, AnAllocationPastTheCapThrowsAndTheCapIsNotRaised) {
  if (MemoryCapBytes(1.0) == 0.0) GTEST_SKIP() << "no cap under AddressSanitizer";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    CapAddressSpace(4e9);
    CapAddressSpace(8e9);  // a second, larger cap leaves the first
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur != static_cast<rlim_t>(4e9)) _exit(2);
    try {
      char* p = new char[static_cast<std::size_t>(6e9)];
      // Used where the compiler cannot see (else it may elide the allocation altogether).
      if (write(-1, p, 1) != 0) _exit(3);  // allocated past the cap
      _exit(3);
    } catch (const std::bad_alloc&) {
      _exit(0);
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: cap not set or raised; 3: allocated past it";
}

}  // namespace
}  // namespace ncp
