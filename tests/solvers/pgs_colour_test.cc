// pgs order=colour: the colouring of W's constraint graph is proper and complete, the coloured
// sweeps give the same λ with 1 and 2 threads (bit for bit), and they reach the exact solution
// of manufactured problems as the sequential sweeps do (tests/solvers/solvers_test.cc).
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "harness/runner.h"
#include "solvers/common/dual_problem.h"
#include "solvers/pgs/colouring.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

ContactProblem Large(std::uint64_t seed) {
  // 400 contacts among 600 bodies: 1200 rows, past the threshold of a parallel sweep.
  return MakeManufacturedProblem(testing::ContactsOnlyOptions(seed, 600, 400), "colour");
}

TEST(PgsColouring, EveryConstraintOnceAndNoColourCoupled) {
  for (const ContactProblem& p :
       {Large(5), MakeManufacturedProblem(testing::AcceptanceOptions(6), "a")}) {
    const DualProblem d = MakeDualProblem(p);
    const Colouring col = ColourConstraints(d.W, p.constraints);
    std::vector<int> sorted = col.order;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(static_cast<int>(sorted.size()), p.num_constraints());
    for (int i = 0; i < p.num_constraints(); ++i) ASSERT_EQ(sorted[i], i);
    std::vector<int> owner(d.W.rows(), -1), colour(p.num_constraints(), -1);
    for (int i = 0; i < p.num_constraints(); ++i)
      for (int k = 0; k < p.constraints[i].rows(); ++k) owner[p.constraints[i].row + k] = i;
    for (int c = 0; c < col.colours(); ++c) {
      EXPECT_LT(col.begin[c], col.begin[c + 1]) << "empty colour " << c;
      for (int t = col.begin[c]; t < col.begin[c + 1]; ++t) colour[col.order[t]] = c;
    }
    int coupled = 0;
    for (int r = 0; r < d.W.outerSize(); ++r)
      for (SpMat::InnerIterator it(d.W, r); it; ++it)
        coupled += owner[r] != owner[it.index()] && colour[owner[r]] == colour[owner[it.index()]];
    EXPECT_EQ(coupled, 0);
    std::printf("%d constraints in %d colours\n", p.num_constraints(), col.colours());
  }
}

Vec LambdaAfter(const ContactProblem& p, int threads, int iters, int& used) {
  const SolverEntry& e = FindSolver("pgs");
  omp_set_num_threads(threads);
  auto s = e.make();
  EXPECT_EQ(s->Setup(p, Settings::Parse("pgs", e.settings, {{"order", "colour"}}), nullptr),
            Status::kRunning);
  for (int k = 0; k < iters; ++k) EXPECT_EQ(s->Iterate(), Status::kRunning);
  used = s->ThreadsUsed();
  Vec v, l;
  s->Current(v, l);
  return l;
}

TEST(PgsColouring, SameIteratesWithOneAndTwoThreads) {
  const int before = omp_get_max_threads();
  const ContactProblem p = Large(7);
  int used1 = 0, used2 = 0;
  const Vec a = LambdaAfter(p, 1, 30, used1), b = LambdaAfter(p, 2, 30, used2);
  omp_set_num_threads(before);
  EXPECT_EQ(used1, 1);
  EXPECT_EQ(used2, 2);  // the parallel sweep ran
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * a.size()), 0);
}

}  // namespace
}  // namespace ncp
