// admm-full with linear=pcg-pbj: each v̂ solve by conjugate gradients with 003's projected
// block-Jacobi preconditioner (P = A + β Σ_b (J_{i,b}J_b)ᵀ(J_{i,b}J_b) on each body's block)
// gives the iterates of the CHOLMOD route to the PCG tolerance, through β's changes, and is
// refused in one line where the problem has no kinematic trees.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "solvers/admm/admm_full.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

struct PcgRun {
  Status setup = Status::kFailed;
  std::string message;
  Vec v, lambda;
  std::vector<std::pair<std::string, double>> info;
};

PcgRun SolvePcg(const ContactProblem& p, const std::map<std::string, std::string>& given,
                int iters) {
  const SolverEntry& e = FindSolver("admm-full");
  AdmmFullSolver s;  // the bare solver: the entry wraps it for local problems
  PcgRun r;
  r.setup = s.Setup(p, Settings::Parse("admm-full", e.settings, given), nullptr);
  r.message = s.message();
  if (r.setup != Status::kRunning) return r;
  for (int k = 0; k < iters; ++k) EXPECT_EQ(s.Iterate(), Status::kRunning) << s.message();
  s.Current(r.v, r.lambda);
  r.info = s.Info();
  return r;
}

double InfoOf(const PcgRun& r, const std::string& key) {
  for (const auto& [k, v] : r.info)
    if (k == key) return v;
  return -1.0;
}

TEST(AdmmPcg, SameIteratesAsCholmodOnTrees) {
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(11), "trees");
  const PcgRun direct = SolvePcg(p, {}, 60);
  const PcgRun pcg = SolvePcg(p, {{"linear", "pcg-pbj"}, {"pcg_tol", "1e-13"}}, 60);
  ASSERT_EQ(pcg.setup, Status::kRunning) << pcg.message;
  const double scale = direct.lambda.cwiseAbs().maxCoeff();
  const double dl = (pcg.lambda - direct.lambda).cwiseAbs().maxCoeff() / scale;
  const double dv = (pcg.v - direct.v).cwiseAbs().maxCoeff() / direct.v.cwiseAbs().maxCoeff();
  std::printf(
      "admm-full pcg-pbj vs cholmod after 60 iterations: λ %.2e, v %.2e apart "
      "(relative); %g PCG iterations, %g refactorizations (β changes)\n",
      dl, dv, InfoOf(pcg, "pcg_iterations"), InfoOf(pcg, "refactorizations"));
  EXPECT_LT(dl, 1e-8);
  EXPECT_LT(dv, 1e-8);
  EXPECT_GT(InfoOf(pcg, "refactorizations"), 1.0) << "β never changed: the test misses SetScale";
  EXPECT_EQ(InfoOf(direct, "pcg_iterations"), 0.0);
}

TEST(AdmmPcg, PcgMaxItersFailsWithAMessage) {
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(12), "trees");
  const SolverEntry& e = FindSolver("admm-full");
  AdmmFullSolver s;
  ASSERT_EQ(s.Setup(p,
                    Settings::Parse(
                        "admm-full", e.settings,
                        {{"linear", "pcg-pbj"}, {"pcg_max_iters", "1"}, {"pcg_tol", "1e-14"}}),
                    nullptr),
            Status::kRunning);
  Status st = Status::kRunning;
  for (int k = 0; k < 5 && st == Status::kRunning; ++k) st = s.Iterate();
  EXPECT_EQ(st, Status::kFailed);
  EXPECT_NE(s.message().find("pcg_max_iters"), std::string::npos) << s.message();
}

TEST(AdmmPcg, NotApplicableWithoutTrees) {
  const ContactProblem p =
      MakeManufacturedProblem(testing::ContactsOnlyOptions(13, 20, 16), "plain");
  const PcgRun r = SolvePcg(p, {{"linear", "pcg-pbj"}}, 0);
  EXPECT_EQ(r.setup, Status::kNotApplicable);
  EXPECT_NE(r.message.find("linear=cholmod applies"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace ncp
