// The engine peers (solvers/engines: Bullet's, ODE's and DART's boxed-LCP solvers) against answers
// known in closed form or from our own solvers: one contact with a diagonal Delassus operator,
// sticking and sliding (the box answer λ_n = −q_n/W_nn, λ_tk = clamp(−q_tk/W_kk, ±μλ_n)); the
// box-friction fixed point of `sp cone=box` on a manufactured problem; and frictionless
// manufactured problems, where the boxed LCP is the exact problem and every peer must reach it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "harness/runner.h"
#include "problems/scenarios/random/manufactured.h"
#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

std::vector<std::string> PivotingPeers() {
  std::vector<std::string> names;
#ifdef NCP_HAVE_BULLET
  names.push_back("bullet:dantzig");
#endif
#ifdef NCP_HAVE_DART
  names.push_back("ode:dantzig");
  names.push_back("dart:dantzig");
#endif
  return names;
}

std::vector<std::string> AllPeers() {
  std::vector<std::string> names = PivotingPeers();
#ifdef NCP_HAVE_BULLET
  names.push_back("bullet:pgs");
  names.push_back("bullet:lemke");
#endif
#ifdef NCP_HAVE_DART
  names.push_back("dart:pgs");
#endif
  return names;
}

// Runs `name` for up to `iters` iterations (a pivoting peer ends its run after its one solve)
// and returns λ; fails the test on a status other than running or stopped.
Vec SolveEngine(const std::string& name, const ContactProblem& p, int iters,
                const std::map<std::string, std::string>& given = {}) {
  const SolverEntry& e = FindSolver(name);
  auto s = e.make();
  EXPECT_EQ(s->Setup(p, Settings::Parse(name, e.settings, given), nullptr), Status::kRunning)
      << name << ": " << s->message();
  for (int k = 0; k < iters; ++k) {
    const Status st = s->Iterate();
    if (st == Status::kStopped) break;
    EXPECT_EQ(st, Status::kRunning) << name << ": " << s->message();
    if (st != Status::kRunning) break;
  }
  Vec v, lambda;
  s->Current(v, lambda);
  return lambda;
}

// The worst violation of box friction's conditions by λ on a contacts-only problem (u = W λ + q
// from the global form): λ_n ≥ 0, u_n ≥ 0, λ_n u_n = 0; |λ_tk| ≤ μ λ_n, u_tk = 0 inside, of the
// opposite sign at a bound.
double BoxViolation(const ContactProblem& p, const Vec& lambda) {
  const Evaluator ev(p);
  const Vec u = ev.ConstraintVelocity(lambda);
  double worst = 0.0;
  for (const Constraint& c : p.constraints) {
    const double ln = lambda[c.row], un = u[c.row];
    worst = std::max({worst, -ln, -un, std::abs(std::min(ln, un))});
    for (int k = 1; k <= 2; ++k) {
      const double lt = lambda[c.row + k], ut = u[c.row + k], b = c.mu * ln;
      worst = std::max(worst, std::abs(lt) - b);
      const double inside = std::min(b - std::abs(lt), std::abs(ut));
      worst = std::max(worst, std::max(0.0, inside));
      if (std::abs(lt) >= b - 1e-12) worst = std::max(worst, std::max(0.0, lt * ut));
    }
  }
  return worst;
}

TEST(EnginePeers, RegisteredWithTheirLibraryVersions) {
#if !defined(NCP_HAVE_BULLET) && !defined(NCP_HAVE_DART)
  GTEST_SKIP() << "built without Bullet and DART (make deps installs them)";
#endif
  for (const std::string& name : AllPeers()) {
    const SolverEntry& e = FindSolver(name);
    const bool versioned = e.description.find("Bullet 3.") != std::string::npos ||
                           e.description.find("DART 6.") != std::string::npos;
    EXPECT_TRUE(versioned) << name << ": " << e.description;
    EXPECT_NE(e.description.find("double precision"), std::string::npos) << name;
    EXPECT_EQ(e.local, LocalUse::kSymmetricPart) << name;
  }
}

// One contact, W = diag(2, 1, 0.5), μ = 0.4, λ_n = 1: sticking (both tangent impulses inside
// ±0.4) and sliding along t1 (clamped at −0.4) while t2 sticks. Every peer returns the box answer
// to 1e-12 (PGS: one sweep is exact on a diagonal W; Lemke's bounds settle in its second solve).
TEST(EnginePeers, OneContactBoxAnswerStickingAndSliding) {
#if !defined(NCP_HAVE_BULLET) && !defined(NCP_HAVE_DART)
  GTEST_SKIP() << "built without Bullet and DART (make deps installs them)";
#endif
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.4);
  p.W = SpMat(3, 3);
  p.W.insert(0, 0) = 2.0;
  p.W.insert(1, 1) = 1.0;
  p.W.insert(2, 2) = 0.5;
  struct Case {
    const char* name;
    Vec q, answer;
  };
  const std::vector<Case> cases = {
      {"sticking", Vec{{-2.0, 0.1, -0.05}}, Vec{{1.0, -0.1, 0.1}}},
      {"sliding", Vec{{-2.0, 3.0, -0.1}}, Vec{{1.0, -0.4, 0.2}}},
  };
  for (const Case& c : cases) {
    p.q = c.q;
    for (const std::string& name : AllPeers()) {
      const Vec lambda = SolveEngine(name, p, 5);
      ASSERT_EQ(lambda.size(), 3) << name;
      EXPECT_LE((lambda - c.answer).cwiseAbs().maxCoeff(), 1e-12)
          << name << " (" << c.name << "): " << lambda.transpose();
    }
  }
}

// With 2 directions the boxed LCP is 003's box friction. The PGS peers' fixed point (5000 sweeps)
// equals that of `sp cone=box` (2000 outer iterations, inner tolerance 1e-14) to 1e-8 relative,
// on 12 contacts of 16 bodies with full-row-rank J (W positive definite), and satisfies box
// friction's conditions to 1e-10. The pivoting peers do not: ODE's Dantzig (Bullet's and DART's
// copies alike) fixes a friction row's bounds from its normal impulse when the row enters the
// pivoting, and later pivots move that normal (measured here: box violation 7.5e-2, Δλ 4.8e-2).
// They agree with each other, as copies of one method should, to 1e-10.
TEST(EnginePeers, TwoDirectionsEqualSpBoxFixedPoint) {
#if !defined(NCP_HAVE_BULLET) && !defined(NCP_HAVE_DART)
  GTEST_SKIP() << "built without Bullet and DART (make deps installs them)";
#endif
  const ContactProblem p =
      MakeManufacturedProblem(testing::ContactsOnlyOptions(321, 16, 12), "box-peers");
  const Vec sp = SolveEngine("sp", p, 2000, {{"cone", "box"}, {"inner_tol", "1e-14"}});
  const double scale = sp.cwiseAbs().maxCoeff();
  ASSERT_GT(scale, 0.0);
  ASSERT_LE(BoxViolation(p, sp), 1e-10);
  for (const std::string& name : AllPeers()) {
    if (!name.ends_with(":pgs")) continue;
    const Vec lambda = SolveEngine(name, p, 5000);
    const double err = (lambda - sp).cwiseAbs().maxCoeff() / scale;
    std::printf("%s vs sp cone=box: max |Δλ| / max |λ| = %.2e, box violation %.2e\n", name.c_str(),
                err, BoxViolation(p, lambda));
    EXPECT_LE(err, 1e-8) << name;
    EXPECT_LE(BoxViolation(p, lambda), 1e-10) << name;
  }
  const std::vector<std::string> pivoting = PivotingPeers();
  if (pivoting.empty()) return;
  const Vec first = SolveEngine(pivoting[0], p, 1);
  for (const std::string& name : pivoting) {
    const Vec lambda = SolveEngine(name, p, 1);
    std::printf("%s vs sp cone=box: max |Δλ| / max |λ| = %.2e, box violation %.2e\n", name.c_str(),
                (lambda - sp).cwiseAbs().maxCoeff() / scale, BoxViolation(p, lambda));
    EXPECT_LE((lambda - first).cwiseAbs().maxCoeff() / scale, 1e-10) << name;
  }
}

// μ = 0 with every row type (soft rows folded): the boxed LCP is the exact problem, and every
// peer reaches natmap ≤ 1e-10 (pivoting: its one solve; PGS: 3000 sweeps; Lemke: 3 solves).
TEST(EnginePeers, FrictionlessManufacturedReachesNatmap1e10) {
#if !defined(NCP_HAVE_BULLET) && !defined(NCP_HAVE_DART)
  GTEST_SKIP() << "built without Bullet and DART (make deps installs them)";
#endif
  ManufacturedOptions o = testing::SmallOptions(33, 16, 10, 3, 3);
  o.mu_min = o.mu_max = 0.0;
  const ContactProblem p = MakeManufacturedProblem(o, "frictionless");
  for (const std::string& name : AllPeers()) {
    const SolverEntry& e = FindSolver(name);
    RunOptions opt;
    opt.budget.iters = name.ends_with(":pgs") ? 3000 : 3;
    opt.threads = 1;
    const RunRecord r = RunOne(
        p, Evaluator(p), SolverJob{&e, Settings::Parse(name, e.settings, {})}, opt, nullptr, 0);
    const double natmap = r.final_metrics[Metric::kNatmapAbs];
    std::printf("%s frictionless: natmap %.2e after %d iterations\n", name.c_str(), natmap,
                r.iterations);
    EXPECT_LE(natmap, 1e-10) << name << ": " << r.message;
  }
}

#ifdef NCP_HAVE_BULLET
// Eight frictionless contacts on a random SPD W (m = 24), half of them separating: a pure LCP
// whose answer needs several Lemke pivots.
ContactProblem RandomLcp(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  const int nc = 8, m = 3 * nc;
  Eigen::MatrixXd B(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) B(i, j) = normal(rng);
  const Eigen::MatrixXd W = B * B.transpose() / m + 0.5 * Eigen::MatrixXd::Identity(m, m);
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  for (int c = 0; c < nc; ++c) AddConstraint(p.constraints, ConstraintType::kContact, 0.0);
  p.W = W.sparseView();
  p.q.resize(m);
  for (int i = 0; i < m; ++i) p.q[i] = normal(rng);
  return p;
}
#endif

// Bullet's Lemke ignores its own failure flag (too few pivots, a ray) and then returns the
// unconstrained solve: the peer must report that as failed, never hand back impulses outside
// their bounds as a running iterate; with enough pivots it solves the LCP (λ_n ≥ 0 to rounding).
TEST(EnginePeers, LemkeAnswerOutsideItsBoundsFails) {
#ifndef NCP_HAVE_BULLET
  GTEST_SKIP() << "built without Bullet (make deps installs it)";
#else
  const SolverEntry& e = FindSolver("bullet:lemke");
  int failed_short = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const ContactProblem p = RandomLcp(seed);
    for (const char* loops : {"1", "10000"}) {
      auto s = e.make();
      ASSERT_EQ(s->Setup(p, Settings::Parse(e.name, e.settings, {{"max_loops", loops}}), nullptr),
                Status::kRunning)
          << s->message();
      const Status st = s->Iterate();
      Vec v, lambda;
      s->Current(v, lambda);
      double lowest = 0.0;
      for (int c = 0; c < 8; ++c) lowest = std::min(lowest, lambda[3 * c]);
      if (st == Status::kFailed) {
        EXPECT_NE(s->message().find("outside their bounds"), std::string::npos) << s->message();
        EXPECT_EQ(std::string(loops), "1") << "seed " << seed << ": " << s->message();
        ++failed_short;
      } else {
        EXPECT_EQ(st, Status::kRunning) << s->message();
        EXPECT_GE(lowest, -1e-12 * std::max(1.0, lambda.cwiseAbs().maxCoeff()))
            << "seed " << seed << ", max_loops " << loops << ": a negative normal impulse";
      }
    }
  }
  EXPECT_GT(failed_short, 0) << "one pivot solved every LCP: the case tests nothing";
#endif
}

// Every contact separating (q_n > 0): the answer is λ = 0, which Bullet's Lemke returns within
// rounding of the data's size (A⁻¹(y + b)), not of the answer's; the peer must accept it.
TEST(EnginePeers, LemkeAcceptsAnAllSeparatingAnswer) {
#ifndef NCP_HAVE_BULLET
  GTEST_SKIP() << "built without Bullet (make deps installs it)";
#else
  const SolverEntry& e = FindSolver("bullet:lemke");
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    ContactProblem p = RandomLcp(seed);
    for (int c = 0; c < 8; ++c) p.q[3 * c] = 1.0 + std::abs(p.q[3 * c]);
    auto s = e.make();
    ASSERT_EQ(s->Setup(p, Settings::Parse(e.name, e.settings, {}), nullptr), Status::kRunning)
        << s->message();
    for (int k = 0; k < 3; ++k) EXPECT_EQ(s->Iterate(), Status::kRunning) << s->message();
    Vec v, lambda;
    s->Current(v, lambda);
    EXPECT_LE(lambda.cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
  }
#endif
}

// More than two directions make a contact's tangent rows dependent, and Bullet's Lemke inverts
// the matrix without pivoting: the setting is refused for it, with its name and rule.
TEST(EnginePeers, LemkeRefusesMoreThanTwoDirections) {
#ifndef NCP_HAVE_BULLET
  GTEST_SKIP() << "built without Bullet (make deps installs it)";
#else
  const SolverEntry& e = FindSolver("bullet:lemke");
  try {
    (void)Settings::Parse(e.name, e.settings, {{"directions", "4"}});
    ADD_FAILURE() << "directions = 4 accepted";
  } catch (const Error& err) {
    const std::string what = err.what();
    EXPECT_NE(what.find("directions"), std::string::npos) << what;
    EXPECT_NE(what.find("4"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_NO_THROW((void)Settings::Parse("bullet:dantzig", FindSolver("bullet:dantzig").settings,
                                        {{"directions", "8"}}));
#endif
}

}  // namespace
}  // namespace ncp
