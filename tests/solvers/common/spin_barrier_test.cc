// SpinBarrier: no thread leaves a phase before the whole team has arrived, what a thread wrote
// before the barrier is what the others read after it, and a team larger than the machine's
// cores (5 threads; the waiters then yield) still runs to the end.
#include "solvers/common/spin_barrier.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ncp {
namespace {

TEST(SpinBarrier, EveryThreadSeesEveryPhaseWrittenBeforeItLeaves) {
  constexpr int kPhases = 2000;
  for (int threads : {1, 2, 3, 5}) {
    SpinBarrier barrier(threads);
    std::vector<int> written(threads, 0);  // plain ints: the barrier orders them
    std::atomic<int> stale{0};
    std::vector<std::thread> team;
    for (int t = 0; t < threads; ++t)
      team.emplace_back([&, t] {
        for (int k = 1; k <= kPhases; ++k) {
          written[t] = k;
          barrier.Wait();
          for (int u = 0; u < threads; ++u)
            if (written[u] != k) stale.fetch_add(1, std::memory_order_relaxed);
          barrier.Wait();  // nobody writes phase k + 1 before every thread has read phase k
        }
      });
    for (std::thread& th : team) th.join();
    EXPECT_EQ(stale.load(), 0) << threads << " threads";
  }
}

TEST(SpinBarrier, ResetChangesTheTeamBetweenUses) {
  SpinBarrier barrier(3);
  barrier.Reset(2);
  std::atomic<int> passed{0};
  std::thread a([&] { barrier.Wait(), ++passed; });
  std::thread b([&] { barrier.Wait(), ++passed; });
  a.join(), b.join();
  EXPECT_EQ(passed.load(), 2);  // two threads were enough: a team of 3 would never release
}

}  // namespace
}  // namespace ncp
