// What one barrier of a 2-thread OpenMP team costs: libgomp's (a futex system call each time)
// against SpinBarrier's (solvers/common/spin_barrier.h), in the same run.
#include <benchmark/benchmark.h>
#include <omp.h>

#include "solvers/common/spin_barrier.h"

namespace {

constexpr int kBarriers = 10000;  // per benchmark iteration, inside one parallel region

void BM_OmpBarrier(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
#pragma omp parallel num_threads(threads)
    for (int i = 0; i < kBarriers; ++i) {
#pragma omp barrier
    }
  }
  state.SetItemsProcessed(state.iterations() * kBarriers);
}
BENCHMARK(BM_OmpBarrier)->Arg(2)->UseRealTime();

void BM_SpinBarrier(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    ncp::SpinBarrier barrier;
#pragma omp parallel num_threads(threads)
    {
#pragma omp single
      barrier.Reset(omp_get_num_threads());
      for (int i = 0; i < kBarriers; ++i) barrier.Wait();
    }
  }
  state.SetItemsProcessed(state.iterations() * kBarriers);
}
BENCHMARK(BM_SpinBarrier)->Arg(2)->UseRealTime();

}  // namespace
