// admm-full's factor setting: auto takes CHOLMOD's choice (simplicial on a sparse factor of few
// flops per nonzero, as the rigid scenes' are), and every factor gives the same iterates to
// rounding (the factors differ in the order of their floating-point operations only).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "solvers/admm/admm_full.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

struct FactorRun {
  Vec v, lambda;
  double supernodal = -1.0;
};

FactorRun Solve(const ContactProblem& p, const std::string& factor, int iters) {
  const SolverEntry& e = FindSolver("admm-full");
  AdmmFullSolver s;  // the bare solver: the entry wraps it for local problems
  const Status st =
      s.Setup(p, Settings::Parse("admm-full", e.settings, {{"factor", factor}}), nullptr);
  EXPECT_EQ(st, Status::kRunning) << s.message();
  FactorRun r;
  if (st != Status::kRunning) return r;
  for (int k = 0; k < iters; ++k) EXPECT_EQ(s.Iterate(), Status::kRunning) << s.message();
  s.Current(r.v, r.lambda);
  for (const auto& [key, value] : s.Info())
    if (key == "supernodal") r.supernodal = value;
  return r;
}

TEST(AdmmFactor, EveryFactorGivesTheSameIteratesToRounding) {
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(11), "trees");
  const FactorRun super = Solve(p, "supernodal", 60);
  const FactorRun simple = Solve(p, "simplicial", 60);
  const FactorRun automatic = Solve(p, "auto", 60);
  EXPECT_EQ(super.supernodal, 1.0);
  EXPECT_EQ(simple.supernodal, 0.0);
  // 11 trees of a few bodies: a sparse factor, well under CHOLMOD's 40 flops per nonzero.
  EXPECT_EQ(automatic.supernodal, 0.0);
  ASSERT_EQ(simple.lambda.size(), super.lambda.size());
  const double dl =
      (simple.lambda - super.lambda).cwiseAbs().maxCoeff() / super.lambda.cwiseAbs().maxCoeff();
  const double dv = (simple.v - super.v).cwiseAbs().maxCoeff() / super.v.cwiseAbs().maxCoeff();
  std::printf("admm-full simplicial vs supernodal after 60 iterations: λ %.2e, v %.2e apart\n", dl,
              dv);
  EXPECT_LT(dl, 1e-10);
  EXPECT_LT(dv, 1e-10);
  EXPECT_EQ(automatic.lambda, simple.lambda);  // auto chose simplicial: the same bits
}

}  // namespace
}  // namespace ncp
