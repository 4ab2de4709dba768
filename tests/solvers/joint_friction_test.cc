// Joint friction (ConstraintType::kJointFriction, 003 §5.2) through the harness: pgs and sp reach
// the manufactured solutions of ManufacturedJointFrictionTree (chains and trees of free bodies
// held by revolute joints with friction, sticking and sliding), and every other solver is
// refused with a message that names the solvers that do handle it.
//
// Uniqueness (manufactured.h): v* is the velocity every run finds; λ* is unique where every
// joint slides (its friction follows its five independent normal impulses) and μ is small (the
// default μ ∈ [0.05, 0.3]: no jamming), not where a joint sticks (10 rows on the 6 dofs of its
// relative twist: how the friction is shared among its five contacts is free within the
// bounds). So λ is compared on the all-sliding problems, v on all of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "harness/runner.h"
#include "problems/scenarios/random/manufactured.h"
#include "solvers/registry.h"
#include "tests/run_support.h"

namespace ncp {
namespace {

struct SolverRun {
  RunRecord record;
  WarmStart solution;
};

SolverRun RunFriction(const std::string& name, const ContactProblem& p, int iters, double tol) {
  SolverRun r;
  r.record = testing::RunSolverOn(name, p, iters, tol, {}, &r.solution);
  return r;
}

double RelErr(const Vec& x, const Vec& ref) { return (x - ref).norm() / ref.norm(); }

struct FrictionCase {
  const char* label;
  int bodies;
  double branching;
  double frac_stick;
  std::uint64_t seed;
};

// Chains of 4–6 bodies and small trees, with sticking and sliding joints, and all-sliding ones
// (where λ* is unique).
const FrictionCase kFrictionCases[] = {
    {"chain4", 4, 0.0, 0.5, 11},         {"chain6", 6, 0.0, 0.5, 12},
    {"tree6", 6, 1.0, 0.5, 13},          {"tree5", 5, 1.0, 0.5, 14},
    {"chain5-sliding", 5, 0.0, 0.0, 15}, {"tree6-sliding", 6, 1.0, 0.0, 16},
};

ContactProblem MakeProblem(const FrictionCase& c) {
  JointFrictionTreeOptions o;
  o.bodies = c.bodies;
  o.branching = c.branching;
  o.frac_stick = c.frac_stick;
  return ManufacturedJointFrictionTree(o, c.seed, c.label);
}

// Measured when added (Release, 1 thread): iterations to res004 ≤ 1e-6, then ‖v − v*‖/‖v*‖ and
// ‖λ − λ*‖/‖λ*‖ (the latter meaningful on the all-sliding cases only):
//                    pgs                         sp
//   chain4           11784  8.5e-6  (0.14)        9300  5.4e-6  (0.13)
//   chain6           17306  2.7e-5  (0.12)        6743  2.1e-5  (0.16)
//   tree6             4104  9.3e-6  (0.17)        1093  1.9e-6  (0.14)
//   tree5             4871  8.6e-6  (0.19)        4020  7.1e-6  (0.14)
//   chain5-sliding     843  1.2e-5  1.1e-3          42  6.2e-7  4.0e-5
//   tree6-sliding     8239  1.5e-5  2.9e-3         290  4.5e-7  9.0e-5
// Bounds: v within 2e-3 of v* (and of each other), λ within 1e-2 on the all-sliding cases.
TEST(JointFriction, PgsAndSpReachTheManufacturedSolutions) {
  constexpr double kTol = 1e-6;
  for (const FrictionCase& c : kFrictionCases) {
    SCOPED_TRACE(c.label);
    const ContactProblem p = MakeProblem(c);
    const Vec& vs = p.reference->v;
    const Vec& ls = p.reference->lambda;
    SolverRun runs[2] = {RunFriction("pgs", p, 60000, kTol), RunFriction("sp", p, 20000, kTol)};
    for (const SolverRun& r : runs) {
      const RunRecord& rec = r.record;
      const double vrel = RelErr(r.solution.v, vs), lrel = RelErr(r.solution.lambda, ls);
      std::printf(
          "[ joint friction ] %-15s %-3s %s after %5d iterations: res004 %.2e, "
          "|v-v*|/|v*| %.2e, |lambda-lambda*|/|lambda*| %.2e\n",
          c.label, rec.solver.c_str(), ToString(rec.status), rec.iterations,
          rec.final_metrics[Metric::kRes004], vrel, lrel);
      EXPECT_EQ(rec.status, Outcome::kConverged) << rec.solver << ": " << rec.message;
      EXPECT_LE(rec.final_metrics[Metric::kRes004], kTol) << rec.solver;
      EXPECT_LT(vrel, 2e-3) << rec.solver;
      if (c.frac_stick == 0.0) {
        EXPECT_LT(lrel, 1e-2) << rec.solver;
      }
    }
    // The two agree with each other as with v* (and λ* where it is unique).
    EXPECT_LT(RelErr(runs[0].solution.v, runs[1].solution.v), 2e-3);
    if (c.frac_stick == 0.0) {
      EXPECT_LT(RelErr(runs[0].solution.lambda, runs[1].solution.lambda), 1e-2);
    }
  }
}

TEST(JointFriction, OtherSolversAreNotApplicableWithAMessage) {
  const ContactProblem p = MakeProblem(kFrictionCases[0]);
  for (const char* name : {"admm-full", "nnewton"}) {
    const SolverRun r = RunFriction(name, p, 10, 0.0);
    EXPECT_EQ(r.record.status, Outcome::kNotApplicable) << name;
    EXPECT_NE(r.record.message.find("joint-friction"), std::string::npos) << r.record.message;
    // The message names the solvers that handle joint friction.
    for (const SolverEntry& e : Solvers()) {
      if (e.joint_friction) {
        EXPECT_NE(r.record.message.find(e.name), std::string::npos) << r.record.message;
      }
    }
    EXPECT_NE(r.record.message.find("(solvers that do: pgs, sp, bisp)"), std::string::npos)
        << r.record.message;
  }
}

}  // namespace
}  // namespace ncp
