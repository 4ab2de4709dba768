// The `factor` setting of the solvers that factor with CHOLMOD as they iterate (admm-full,
// canal): auto takes CHOLMOD's choice (simplicial on a sparse factor of few flops per nonzero, as
// the rigid scenes' are), and every factor gives the same iterates to rounding (the factors
// differ in the order of their floating-point operations only).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

struct FactorRun {
  Vec v, lambda;
  double supernodal = -1.0;
};

FactorRun SolveWithFactor(const std::string& solver, const ContactProblem& p,
                          const std::string& factor, int iters) {
  const SolverEntry& e = FindSolver(solver);
  const std::unique_ptr<Solver> s = e.make();
  const Status st = s->Setup(p, Settings::Parse(solver, e.settings, {{"factor", factor}}), nullptr);
  EXPECT_EQ(st, Status::kRunning) << s->message();
  FactorRun r;
  if (st != Status::kRunning) return r;
  for (int k = 0; k < iters; ++k) EXPECT_EQ(s->Iterate(), Status::kRunning) << s->message();
  s->Current(r.v, r.lambda);
  for (const auto& [key, value] : s->Info())
    if (key == "supernodal") r.supernodal = value;
  return r;
}

class FactorSetting : public ::testing::TestWithParam<const char*> {};

TEST_P(FactorSetting, EveryFactorGivesTheSameIteratesToRounding) {
  const std::string solver = GetParam();
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(11), "trees");
  const int iters = solver == "canal" ? 5 : 60;
  const FactorRun super = SolveWithFactor(solver, p, "supernodal", iters);
  const FactorRun simple = SolveWithFactor(solver, p, "simplicial", iters);
  const FactorRun automatic = SolveWithFactor(solver, p, "auto", iters);
  EXPECT_EQ(super.supernodal, 1.0);
  EXPECT_EQ(simple.supernodal, 0.0);
  // 11 trees of a few bodies: a sparse factor, well under CHOLMOD's 40 flops per nonzero.
  EXPECT_EQ(automatic.supernodal, 0.0);
  ASSERT_EQ(simple.lambda.size(), super.lambda.size());
  const double dl =
      (simple.lambda - super.lambda).cwiseAbs().maxCoeff() / super.lambda.cwiseAbs().maxCoeff();
  const double dv = (simple.v - super.v).cwiseAbs().maxCoeff() / super.v.cwiseAbs().maxCoeff();
  std::printf("%s simplicial vs supernodal after %d iterations: λ %.2e, v %.2e apart\n",
              solver.c_str(), iters, dl, dv);
  EXPECT_LT(dl, 1e-10);
  EXPECT_LT(dv, 1e-10);
  EXPECT_EQ(automatic.lambda, simple.lambda);  // auto chose simplicial: the same bits
}

INSTANTIATE_TEST_SUITE_P(Solvers, FactorSetting, ::testing::Values("admm-full", "canal"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace ncp
