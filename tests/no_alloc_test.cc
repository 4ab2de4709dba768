// Solvers do not allocate in Iterate(). malloc, calloc and realloc are interposed in this test
// binary (glibc's __libc_* entry points do the work), so every heap allocation counts while the
// counter is armed: Eigen's, the standard library's (operator new) and CHOLMOD's.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <string>

#include "solvers/registry.h"
#include "tests/test_problems.h"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
}

namespace {
std::atomic<bool> g_armed{false};
std::atomic<long> g_allocations{0};
void Count() {
  if (g_armed.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  Count();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t s) {
  Count();
  return __libc_calloc(n, s);
}
void* realloc(void* p, std::size_t n) {
  Count();
  return __libc_realloc(p, n);
}
}

namespace ncp {
namespace {

class NoAllocation : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(NoAllocation, InIterate) {
  const auto [name, settings] = GetParam();
  // The subsystem solvers run on kinematic trees (their tree factorizations), the others on
  // the acceptance family (one rigid body per subsystem, which subadmm-rigid-cpu needs).
  const bool trees =
      std::string(name).rfind("subadmm", 0) == 0 && std::string(name) != "subadmm-rigid-cpu";
  const ContactProblem p = MakeManufacturedProblem(
      trees ? testing::TreeOptions(4) : testing::AcceptanceOptions(4), "a");
  const SolverEntry& e = FindSolver(name);
  auto solver = e.make();
  ASSERT_EQ(solver->Setup(p, Settings::Parse(name, e.settings, ParseKeyValues(settings)), nullptr),
            Status::kRunning);
  solver->Iterate();  // first call may size lazily created workspaces
  // A refactorization (admm-full when 004:43 changes β) runs CHOLMOD's numeric factorization,
  // which allocates its permuted copy of the matrix; every other iteration must not allocate.
  auto refactorizations = [&] {
    for (const auto& [key, value] : solver->Info())
      if (key == "refactorizations") return value;
    return 0.0;
  };
  int plain_iterations = 0;
  for (int k = 0; k < 50; ++k) {
    const double before = refactorizations();
    g_allocations = 0;
    g_armed = true;
    solver->Iterate();
    g_armed = false;
    if (refactorizations() != before) continue;
    ++plain_iterations;
    EXPECT_EQ(g_allocations.load(), 0) << name << " allocated in iteration " << k + 1;
  }
  EXPECT_GT(plain_iterations, 25);
}

TEST(NoAllocationCounter, SeesEigenAllocations) {
  g_allocations = 0;
  g_armed = true;
  Vec x = Vec::Random(100);
  g_armed = false;
  EXPECT_GE(g_allocations.load(), 1) << x.sum();
}

INSTANTIATE_TEST_SUITE_P(
    AllSolvers, NoAllocation,
    ::testing::Values(std::make_pair("pgs", ""), std::make_pair("pgs", "nncg=1"),
                      std::make_pair("pj", ""), std::make_pair("apgd", ""),
                      std::make_pair("apgd", "friction_model=ccp"),
                      std::make_pair("admm-full", ""), std::make_pair("admm-full", "adaptive=0"),
                      std::make_pair("subadmm", ""), std::make_pair("subadmm", "factorization=aba"),
                      std::make_pair("subadmm", "factorization=dense;apply=bodies"),
                      std::make_pair("subadmm-nobody", ""),
                      std::make_pair("subadmm-rigid-cpu", ""), std::make_pair("cond", ""),
                      std::make_pair("cond", "step=bb;operator=proximal"),
                      std::make_pair("cond", "chebyshev=off;step=power"),
                      std::make_pair("local-newton", "")),
    [](const auto& info) {
      std::string s = std::string(info.param.first) + "_" + info.param.second;
      for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return s;
    });

}  // namespace
}  // namespace ncp

#include "solvers/nnewton/nnewton.h"

namespace ncp {
namespace {

// nnewton's Iterate() runs Eigen's SparseLU numeric factorization and solve, which allocate
// their supernodal storage and permuted copies (16 allocations per step, measured), so it is
// not in the list above; what nnewton does itself, F(x) and G(x) in place, must not allocate.
TEST(NoAllocation, NNewtonResidualAndJacobian) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(4), "a");
  const SolverEntry& e = FindSolver("nnewton");
  NNewtonSolver s;
  ASSERT_EQ(s.Setup(p, Settings::Parse("nnewton", e.settings, {}), nullptr), Status::kRunning);
  s.Iterate();
  Vec x = Vec::Random(p.num_dofs() + p.num_rows()), f = Vec::Zero(x.size());
  g_allocations = 0;
  g_armed = true;
  s.Residual(x, f);
  s.Jacobian(x);
  g_armed = false;
  EXPECT_EQ(g_allocations.load(), 0);
}

}  // namespace
}  // namespace ncp
