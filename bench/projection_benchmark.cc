// Micro-benchmarks of the friction-cone operators and of one PGS sweep (built, not run by CI).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "problems/math/cone.h"
#include "problems/scenarios/random/manufactured.h"
#include "solvers/registry.h"

namespace {

std::vector<double> RandomPoints(int n) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  std::vector<double> x(3 * n);
  for (double& v : x) v = g(rng);
  return x;
}

void BM_ProjectStrict(benchmark::State& state) {
  const auto x = RandomPoints(4096);
  std::vector<double> y(x.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < x.size(); i += 3) ncp::ProjectStrict(0.5, &x[i], &y[i]);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * 4096);
}
BENCHMARK(BM_ProjectStrict);

void BM_ProjectProximal(benchmark::State& state) {
  const auto x = RandomPoints(4096);
  std::vector<double> y(x.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < x.size(); i += 3) ncp::ProjectProximal(0.5, &x[i], &y[i]);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * 4096);
}
BENCHMARK(BM_ProjectProximal);

// One PGS sweep (= one Iterate) on a manufactured problem with state.range(0) contacts.
void BM_PgsSweep(benchmark::State& state) {
  ncp::ManufacturedOptions o;
  o.num_contacts = static_cast<int>(state.range(0));
  o.num_bodies = std::max(10, o.num_contacts);
  const ncp::ContactProblem p = ncp::MakeManufacturedProblem(o, "bench");
  const ncp::SolverEntry& e = ncp::FindSolver("pgs");
  auto solver = e.make();
  solver->Setup(p, ncp::Settings::Parse("pgs", e.settings, {}), nullptr);
  for (auto _ : state) benchmark::DoNotOptimize(solver->Iterate());
  state.SetItemsProcessed(state.iterations() * o.num_contacts);
}
BENCHMARK(BM_PgsSweep)->Arg(50)->Arg(200)->Arg(1000);

}  // namespace
