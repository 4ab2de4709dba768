// Solver::Work() against counts made by hand on a problem small enough to count: two contacts
// with a dense 6 × 6 Delassus matrix (36 stored entries, 7 outer pointers, 6 rows).
#include <gtest/gtest.h>

#include <type_traits>

#include "solvers/common/work_count.h"
#include "solvers/pgs/pgs.h"
#include "solvers/pj/pj.h"
#include "solvers/registry.h"
#include "solvers/settings.h"

namespace ncp {
namespace {

ContactProblem TwoContactsDenseW() {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  Eigen::MatrixXd W = Eigen::MatrixXd::Constant(6, 6, 0.1);
  W.diagonal().array() += 1.0;
  p.W = W.sparseView();
  p.q = Vec::Constant(6, -1.0);
  return p;
}

template <typename S>
WorkCount WorkAfter(int iterations) {
  S solver;
  const ContactProblem p = TwoContactsDenseW();
  const std::string name = std::is_same_v<S, PjSolver> ? "pj" : "pgs";
  const Settings defaults = Settings::Parse(name, FindSolver(name).settings, {});
  EXPECT_EQ(solver.Setup(p, defaults, nullptr), Status::kRunning) << solver.message();
  for (int k = 0; k < iterations; ++k) EXPECT_EQ(solver.Iterate(), Status::kRunning);
  return solver.Work();
}

// W: 36 × (8 + 4) = 432 bytes of values and indices, 7 × 4 = 28 of outer pointers, 72 flops.
constexpr double kWBytes = 432 + 28, kWFlops = 72;

// Each distinct vector an iteration touches counts once (a lower bound: re-reads within the
// iteration may come from the cache): pj's q, λ, u and diag.
TEST(WorkCount, JacobiMovesWOnceAndFourVectorsPerIteration) {
  const WorkCount w = WorkAfter<PjSolver>(3);
  EXPECT_EQ(w.bytes, 3 * (kWBytes + 4 * 6 * 8.0));  // 4 vectors of 6 doubles
  EXPECT_EQ(w.flops, 3 * (kWFlops + 6 * 6.0));      // 6 flops of projection per row
}

// pgs's q, diag and λ (updated in place).
TEST(WorkCount, GaussSeidelSweepsWOnceAndThreeVectorsPerIteration) {
  const WorkCount w = WorkAfter<PgsSolver>(2);
  EXPECT_EQ(w.bytes, 2 * (kWBytes + 3 * 6 * 8.0));
  EXPECT_EQ(w.flops, 2 * (kWFlops + 6 * 6.0));
}

TEST(WorkCount, NothingBeforeTheFirstIteration) {
  const WorkCount w = WorkAfter<PjSolver>(0);
  EXPECT_EQ(w.bytes, 0.0);
  EXPECT_EQ(w.flops, 0.0);
}

// The kernels' conventions on a sparse matrix built here: its actual storage.
TEST(WorkCount, SparseProductIsTheMatrixStorage) {
  SpMat M(4, 5);
  M.insert(0, 0) = 1, M.insert(3, 1) = 2, M.insert(2, 4) = 3;
  M.makeCompressed();
  const WorkCount w = work::SparseProduct(M);
  EXPECT_EQ(w.bytes, 3 * (sizeof(double) + sizeof(int)) + 6 * sizeof(int));
  EXPECT_EQ(w.flops, 6.0);
  // A dense Cholesky solve reads the n(n+1)/2 factor entries twice.
  EXPECT_EQ(work::DenseFactorSolve(4).flops, 40.0);
}

}  // namespace
}  // namespace ncp
