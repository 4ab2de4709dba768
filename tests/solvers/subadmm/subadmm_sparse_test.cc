// subadmm-nobody's sparse per-subsystem factorization (CHOLMOD, symbolic analysis once, numeric
// refactorization per β change) against its dense one (Eigen LLT of the assembled K_j) on a small
// FEM beam (4 pieces of ~250 dofs): the same iterates to 1e-10 at every iteration, through the
// β changes of the adaptive rule; and `auto` choosing the sparse path for FEM pieces only.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "harness/simulate.h"
#include "solvers/registry.h"
#include "tests/solver_info.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

// One frame of a 4-piece FEM beam pushed through the gap (a few seconds to record).
const ContactProblem& SmallBeam() {
  static const ContactProblem p = [] {
    SimulateOptions o;
    o.steps = 18;
    o.every = 18;
    o.iters = 100;
    o.quiet = true;
    o.reference_solvers.clear();
    const SimulateResult r =
        Simulate(*FindScene("fem_beam"), ParseKeyValues("size=0.5,pieces=4"), 1, o);
    return r.recorded.empty() ? ContactProblem{} : r.recorded.front();
  }();
  return p;
}

using testing::InfoValue;

std::unique_ptr<Solver> StartSubadmm(const ContactProblem& p, const std::string& settings) {
  const SolverEntry& e = FindSolver("subadmm-nobody");
  auto s = e.make();
  EXPECT_EQ(s->Setup(p, Settings::Parse(e.name, e.settings, ParseKeyValues(settings)), nullptr),
            Status::kRunning)
      << s->message();
  return s;
}

double RelDiff(const Vec& a, const Vec& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }

TEST(SubAdmmSparse, SameIteratesAsDenseOnFemBeam) {
  const ContactProblem& p = SmallBeam();
  ASSERT_GT(p.num_contacts(), 0);
  ASSERT_EQ(p.structure.subsystems.size(), 4u);
  for (const char* extra : {"", ";row_scaling=0", ";row_scaling=0;balance=paper"}) {
    SCOPED_TRACE(extra);
    auto dense = StartSubadmm(p, std::string("factorization=dense") + extra);
    auto sparse = StartSubadmm(p, std::string("factorization=sparse") + extra);
    EXPECT_EQ(InfoValue(*dense, "sparse_subsystems"), 0.0);
    EXPECT_EQ(InfoValue(*sparse, "sparse_subsystems"), 4.0);
    double worst_v = 0, worst_l = 0;
    for (int k = 1; k <= 80; ++k) {
      const Status a = dense->Iterate(), b = sparse->Iterate();
      ASSERT_EQ(a, b) << "iteration " << k;
      Vec v1, l1, v2, l2;
      dense->Current(v1, l1);
      sparse->Current(v2, l2);
      worst_v = std::max(worst_v, RelDiff(v2, v1));
      worst_l = std::max(worst_l, RelDiff(l2, l1));
      ASSERT_LE(RelDiff(v2, v1), 1e-10) << "v, iteration " << k;
      ASSERT_LE(RelDiff(l2, l1), 1e-10) << "lambda, iteration " << k;
      if (a != Status::kRunning) break;
    }
    // Same β history: the same refactorizations on both paths.
    EXPECT_EQ(InfoValue(*dense, "refactorizations"), InfoValue(*sparse, "refactorizations"));
    EXPECT_NEAR(InfoValue(*sparse, "beta"), InfoValue(*dense, "beta"),
                1e-10 * InfoValue(*dense, "beta"));
    std::printf("settings '%s': %g refactorizations, worst |dv|/|v| %.1e, |dl|/|l| %.1e\n", extra,
                InfoValue(*dense, "refactorizations"), worst_v, worst_l);
  }
}

TEST(SubAdmmSparse, AutoFactorizesFemPiecesSparselyAndSmallBlocksDensely) {
  const ContactProblem& beam = SmallBeam();
  EXPECT_EQ(InfoValue(*StartSubadmm(beam, ""), "sparse_subsystems"), 4.0);
  // Manufactured rigid bodies: 6-dof subsystems stay dense.
  const ContactProblem rigid = MakeManufacturedProblem(testing::AcceptanceOptions(5), "r");
  ASSERT_FALSE(rigid.structure.empty());
  EXPECT_EQ(InfoValue(*StartSubadmm(rigid, ""), "sparse_subsystems"), 0.0);
}

}  // namespace
}  // namespace ncp
