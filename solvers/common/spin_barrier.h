// A barrier for the threads of one team that meet every few microseconds (the threaded
// iterations of the subsystem solvers: three barriers an iteration of ~10 µs). The last thread to
// arrive releases the others with one store they wait on in user space. libgomp's team barrier
// makes a futex system call each time, waiters or not; two threads on a 2-core guest took
// 0.27 µs a barrier there against 0.05 µs here (bench/barrier_benchmark.cc measures both).
// A waiter spins a bounded number of times and then yields, so a team with more threads than
// cores still moves on.
#pragma once

#include <atomic>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ncp {

class SpinBarrier {
 public:
  explicit SpinBarrier(int threads = 1) : threads_(threads) {}
  SpinBarrier(const SpinBarrier&) = delete;
  SpinBarrier& operator=(const SpinBarrier&) = delete;

  // The team's size; only while no thread waits (e.g. before the team starts).
  void Reset(int threads) {
    threads_ = threads;
    arrived_.store(0, std::memory_order_relaxed);
  }

  // Returns once every thread of the team has called Wait() as often as this one. What a thread
  // wrote before its call is visible to every thread after theirs (release by each arrival,
  // acquire by each release).
  void Wait() {
    if (threads_ <= 1) return;
    const unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);  // before the release: the next Wait() sees 0
      generation_.store(generation + 1, std::memory_order_release);
      return;
    }
    for (int spins = 0; generation_.load(std::memory_order_acquire) == generation;) {
      if (spins < kSpins) {
        ++spins;
        Pause();
      } else {
        std::this_thread::yield();
      }
    }
  }

 private:
  // About 50–200 µs of pause instructions: longer than any wait of a balanced iteration,
  // far shorter than a scheduler's time slice.
  static constexpr int kSpins = 4000;
  static void Pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }

  // On lines of their own: the arrivals' counter is written by every thread, the generation
  // read by every waiter.
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<unsigned> generation_{0};
  int threads_;
};

}  // namespace ncp
