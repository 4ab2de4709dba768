// The host side of a `subadmm-gpu` step's setup on sliding cubes (001 Table I): the layout built
// from the problem (BuildRigidLayout), the warm start scattered into it (SetState) and the initial
// scalars (InitialScalars, with the density rule's β). On the device machine these are most of a
// 2000-cube step's setup (results/measured/README.md), so they are timed here, without a GPU.
#include <benchmark/benchmark.h>

#include <map>

#include "harness/simulate.h"
#include "problems/scenarios/rigid/scene.h"
#include "solvers/settings.h"
#include "solvers/registry.h"
#include "solvers/subadmm_rigid/rigid_layout.h"
#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"

namespace {

// One recorded frame of sliding cubes, simulated once per size (a few steps of `subadmm`).
const ncp::ContactProblem& Frame(int cubes) {
  static std::map<int, ncp::ContactProblem> frames;
  auto it = frames.find(cubes);
  if (it != frames.end()) return it->second;
  ncp::SimulateOptions so;
  so.solver = "subadmm", so.iters = 30, so.dt = 0.005;
  so.steps = 4, so.every = 4;
  so.reference_solvers.clear();
  so.quiet = true;
  std::vector<ncp::ContactProblem> rec =
      ncp::Simulate(*ncp::FindScene("sliding_cubes"), {{"cubes", std::to_string(cubes)}}, 1, so)
          .recorded;
  return frames.emplace(cubes, std::move(rec.back())).first->second;
}

void BM_RigidLayout(benchmark::State& state) {
  const ncp::ContactProblem& p = Frame(static_cast<int>(state.range(0)));
  ncp::gpu::RigidLayout lay;
  // As subadmm-gpu builds it: its threads, no host work arrays (the device clears its own).
  const ncp::gpu::LayoutOptions opt{.threads = static_cast<int>(state.range(1)),
                                    .host_work = state.range(2) != 0};
  for (auto _ : state) {
    std::string why = ncp::gpu::BuildRigidLayout(p, lay, opt);
    if (!why.empty()) state.SkipWithError(why.c_str());
    benchmark::DoNotOptimize(lay.contacts.J.data());
  }
  state.counters["contacts"] = p.num_contacts();
}
// The same with the caches cleared before each build (the harness evaluates results between
// runs, so a run's setup finds little of the problem in cache), and with a fresh layout (its
// arrays allocated and page-faulted anew).
void BM_RigidLayoutCold(benchmark::State& state) {
  const ncp::ContactProblem& p = Frame(static_cast<int>(state.range(0)));
  const bool fresh = state.range(2) != 0;
  const ncp::gpu::LayoutOptions opt{.threads = static_cast<int>(state.range(1)),
                                    .host_work = false};
  std::vector<double> other(16 << 20, 1.0);  // 128 MB, more than the last-level cache
  ncp::gpu::RigidLayout kept;
  for (auto _ : state) {
    state.PauseTiming();
    for (double& x : other) x *= 1.0000001;
    benchmark::DoNotOptimize(other.data());
    ncp::gpu::RigidLayout fresh_layout;
    state.ResumeTiming();
    ncp::gpu::RigidLayout& lay = fresh ? fresh_layout : kept;
    std::string why = ncp::gpu::BuildRigidLayout(p, lay, opt);
    if (!why.empty()) state.SkipWithError(why.c_str());
    benchmark::DoNotOptimize(lay.contacts.J.data());
  }
}
BENCHMARK(BM_RigidLayoutCold)
    ->ArgNames({"cubes", "threads", "fresh"})
    ->Args({2000, 1, 0})
    ->Args({2000, 2, 0})
    ->Args({2000, 2, 1})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_RigidLayout)
    ->ArgNames({"cubes", "threads", "host_work"})
    ->Args({100, 1, 1})
    ->Args({2000, 1, 1})
    ->Args({2000, 1, 0})
    ->Args({2000, 2, 0})
    ->Unit(benchmark::kMicrosecond);

void BM_RigidSetState(benchmark::State& state) {
  const ncp::ContactProblem& p = Frame(static_cast<int>(state.range(0)));
  ncp::gpu::RigidLayout lay;
  ncp::gpu::BuildRigidLayout(p, lay);
  const ncp::Vec v = ncp::Vec::Zero(p.num_dofs()), l = ncp::Vec::Zero(p.num_rows());
  for (auto _ : state) {
    lay.SetState(v, l);
    benchmark::DoNotOptimize(lay.v.data());
  }
}
BENCHMARK(BM_RigidSetState)->Arg(2000)->Unit(benchmark::kMicrosecond);

void BM_RigidInitialScalars(benchmark::State& state) {
  const ncp::ContactProblem& p = Frame(static_cast<int>(state.range(0)));
  const ncp::SolverEntry& e = ncp::FindSolver("subadmm-rigid-cpu");
  const ncp::Settings s = ncp::Settings::Parse(e.name, e.settings, {});
  for (auto _ : state) benchmark::DoNotOptimize(ncp::gpu::InitialScalars(p, s));
}
BENCHMARK(BM_RigidInitialScalars)->Arg(2000)->Unit(benchmark::kMicrosecond);

}  // namespace
