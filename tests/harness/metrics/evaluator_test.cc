// The evaluator: zero at the exact solution for each constraint type, growing under growing
// perturbation, and natmap equal to Siconos' fc3d_compute_error on the shared fclib problems.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "harness/metrics/evaluator.h"
#include "problems/io/fclib_io.h"
#include "tests/fclib_samples.h"
#include "tests/test_problems.h"

#ifdef NCP_HAVE_SICONOS
#include <FrictionContactProblem.h>
#include <NumericsMatrix.h>
#include <fc3d_compute_error.h>
#endif

namespace ncp {
namespace {

const Metric kZeroAtSolution[] = {
    Metric::kRes004,          Metric::kNatmapAbs,   Metric::kNatmapRel,
    Metric::kNatmapSiconos,   Metric::kFb,          Metric::kDyn,
    Metric::kPrimal,          Metric::kPenetration, Metric::kConeViolation,
    Metric::kComplementarity, Metric::kDissipation};

class EvaluatorPerType : public ::testing::TestWithParam<ConstraintType> {};

TEST_P(EvaluatorPerType, ZeroAtExactSolution) {
  const ContactProblem p = testing::OnlyType(GetParam());
  const Evaluator ev(p);
  const Metrics m = ev.Evaluate(p.reference->v, p.reference->lambda);
  for (Metric k : kZeroAtSolution) EXPECT_LE(m[k], 1e-12) << kMetricNames[static_cast<int>(k)];
  // Relative dual residual: scaled by the size of the terms it balances.
  const double scale = (p.A * p.reference->v).lpNorm<Eigen::Infinity>();
  EXPECT_LE(m[Metric::kDual], 1e-12 * scale);
  EXPECT_GE(m[Metric::kFbAA], 12.0);
}

TEST_P(EvaluatorPerType, GrowsMonotonicallyUnderGrowingPerturbation) {
  const ContactProblem p = testing::OnlyType(GetParam());
  const Evaluator ev(p);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  Vec dl(p.num_rows()), dv(p.num_dofs());
  for (auto& x : dl) x = g(rng);
  for (auto& x : dv) x = g(rng);
  const Metric grow[] = {Metric::kRes004, Metric::kNatmapAbs, Metric::kFb, Metric::kDyn,
                         Metric::kPrimal};
  Metrics prev = ev.Evaluate(p.reference->v, p.reference->lambda);
  for (double eps = 1e-8; eps <= 1e-1; eps *= 10) {
    const Metrics m = ev.Evaluate(p.reference->v + eps * dv, p.reference->lambda + eps * dl);
    for (Metric k : grow)
      EXPECT_GT(m[k], prev[k]) << kMetricNames[static_cast<int>(k)] << " at eps=" << eps;
    prev = m;
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, EvaluatorPerType,
                         ::testing::Values(ConstraintType::kContact, ConstraintType::kUnilateral,
                                           ConstraintType::kBilateral, ConstraintType::kSoft),
                         [](const auto& info) { return std::string(ToString(info.param)); });

TEST(Evaluator, MixedProblemZeroAtExactSolution) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(5), "mixed");
  const Metrics m = Evaluator(p).Evaluate(p.reference->v, p.reference->lambda);
  for (Metric k : kZeroAtSolution) EXPECT_LE(m[k], 1e-12) << kMetricNames[static_cast<int>(k)];
}

TEST(Evaluator, NonFiniteMultiplierGivesNaNNotCrash) {
  const ContactProblem p = testing::OnlyType(ConstraintType::kContact);
  Vec lam = p.reference->lambda;
  lam[0] = std::numeric_limits<double>::quiet_NaN();
  const Metrics m = Evaluator(p).Evaluate(p.reference->v, lam);
  EXPECT_TRUE(std::isnan(m[Metric::kRes004]));
}

// The harness' tolerance test computes res004 alone: the same number, to the bit, as Evaluate's
// (so a run stops at the same iteration whether or not it records a trace).
TEST(Evaluator, Res004AloneEqualsEvaluatesBitwise) {
  const ContactProblem p = MakeManufacturedProblem(testing::AcceptanceOptions(5), "mixed");
  const Evaluator ev(p);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  Vec lam = p.reference->lambda;
  for (auto& x : lam) x += 1e-3 * g(rng);
  const double alone = ev.Res004(lam);
  EXPECT_GT(alone, 0.0);
  EXPECT_EQ(alone, ev.Evaluate(p.reference->v, lam)[Metric::kRes004]);
  EXPECT_TRUE(std::isnan(ev.Res004(Vec::Zero(p.num_rows() + 1))));
}

#ifdef NCP_HAVE_SICONOS
// Natural-map error against Siconos on the local fclib problems, at the same (r, u = W r + q).
double SiconosError(const ContactProblem& p, const Vec& r) {
  const int m = p.num_rows();
  Eigen::MatrixXd W = Eigen::MatrixXd(p.W);  // column-major, as NM_DENSE expects
  Vec q = p.q, z = r, w(m);
  std::vector<double> mu;
  for (const Constraint& c : p.constraints) mu.push_back(c.mu);
  NumericsMatrix* M = NM_create_from_data(NM_DENSE, m, m, W.data());
  FrictionContactProblem* fc =
      frictionContactProblem_new_with_data(3, p.num_contacts(), M, q.data(), mu.data());
  double err = -1;
  fc3d_compute_error(fc, z.data(), w.data(), 1e-16, nullptr, q.norm(), &err);
  fc->M = nullptr, fc->q = nullptr, fc->mu = nullptr;  // owned here, not by Siconos
  frictionContactProblem_free(fc);
  M->matrix0 = nullptr;  // the data belongs to W
  NM_free(M);
  return err;
}

TEST(Evaluator, NatmapEqualsSiconosOnFclibLocalProblems) {
  for (const char* file :
       {"local_problem_test.hdf5", "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"}) {
    const ContactProblem p = ReadFclib(testing::FclibSample(file));
    ASSERT_EQ(p.form, ProblemForm::kLocal);
    const Evaluator ev(p);
    std::mt19937_64 rng(9);
    std::normal_distribution<double> g;
    double worst = 0.0;
    for (int trial = 0; trial < 5; ++trial) {
      Vec r(p.num_rows());
      for (auto& x : r) x = g(rng) * std::pow(10.0, trial - 2);
      const double ours = ev.Evaluate(Vec(), r)[Metric::kNatmapSiconos];
      const double theirs = SiconosError(p, r);
      EXPECT_NEAR(ours, theirs, 1e-10 * theirs) << file << " trial " << trial;
      worst = std::max(worst, std::abs(ours - theirs) / theirs);
    }
    std::printf("%s: natmap_siconos vs fc3d_compute_error, worst relative difference %.2e\n", file,
                worst);
  }
}
#endif

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// Frictionless contacts: the metrics see a force on a separating contact.
TEST(Evaluator, FrictionlessContactMetrics) {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.0);
  p.W = SpMat(3, 3);
  p.W.setIdentity();
  p.q = Vec::Zero(3);
  p.q[0] = 3.0;  // separating: the solution is λ = 0
  const Evaluator ev(p);
  EXPECT_LE(ev.Evaluate(Vec(), Vec::Zero(3))[Metric::kNatmapAbs], 1e-15);
  Vec pull = Vec::Zero(3), push = Vec::Zero(3);
  pull[0] = -0.04;
  push[0] = 5.0;
  EXPECT_GT(ev.Evaluate(Vec(), pull)[Metric::kNatmapAbs], 0.01);
  EXPECT_GT(ev.Evaluate(Vec(), push)[Metric::kFb], 1.0);
}

// The Fischer–Burmeister error at exact solutions of one contact (μ = 0.5) with the impulse far
// larger than the velocity, as on a loaded sliding contact: the cone function's small eigenvalue
// was a difference of two ~‖λ‖² numbers, which left ‖φ‖ at √ε‖λ‖ (here ~15 at ‖λ‖ = 1e9) where
// a loss-free form reaches ε‖λ‖. φ is positively homogeneous: a scaling of both λ and u by
// 10^±200 scales it alike instead of overflowing or underflowing.
TEST(Evaluator, FischerBurmeisterIsAccurateAtSolutionsFarFromUnitScale) {
  Constraint c;
  c.type = ConstraintType::kContact;
  c.mu = 0.5;
  const double e[3] = {0.0, 0.0, 0.0};
  const double eps = std::numeric_limits<double>::epsilon();
  for (const double L : {1.0, 1e3, 1e9}) {
    for (const double s : {1e-3, 1.0}) {
      const double ct = 0.6, st = 0.8;  // |(ct, st)| = 1 exactly
      // Sliding: u_t = s (ct, st), u_n = 0; λ on the cone's edge opposite to u_t.
      const double slide_l[3] = {L, -c.mu * L * ct, -c.mu * L * st},
                   slide_u[3] = {0, s * ct, s * st};
      // Sticking inside the cone (u = 0), and separated (λ = 0, u_n > 0).
      const double stick_l[3] = {L, 0.1 * L, -0.2 * L}, zero[3] = {0, 0, 0};
      const double sep_u[3] = {s, 0.3 * s, -0.1 * s};
      EXPECT_LE(FischerBurmeisterError(c, slide_l, slide_u, e), 16 * eps * L) << L << " " << s;
      EXPECT_LE(FischerBurmeisterError(c, stick_l, zero, e), 16 * eps * L) << L;
      EXPECT_LE(FischerBurmeisterError(c, zero, sep_u, e), 16 * eps * s) << s;
    }
  }
  // Off a solution the value is unchanged in scale: φ(tλ, tu) = t φ(λ, u).
  const double l[3] = {1.0, 0.7, -0.2}, u[3] = {-0.3, 0.4, 0.5};
  const double ref = FischerBurmeisterError(c, l, u, e);
  EXPECT_GT(ref, 0.1);
  for (const double t : {1e-200, 1e200}) {
    const double lt[3] = {t * l[0], t * l[1], t * l[2]}, ut[3] = {t * u[0], t * u[1], t * u[2]};
    EXPECT_NEAR(FischerBurmeisterError(c, lt, ut, e) / t, ref, 1e-14 * ref) << t;
  }
  // The scalar function of a unilateral row: λ = 1e9, u = 1e-3 off complementarity by their
  // product's order, 2ab/(a + b + √(a²+b²)) ≈ 1e-3, not lost to a + b − √(a² + b²).
  Constraint uni;
  uni.type = ConstraintType::kUnilateral;
  const double la[1] = {1e9}, ua[1] = {1e-3};
  EXPECT_NEAR(FischerBurmeisterError(uni, la, ua, e), 1e-3, 1e-15);
  // Scaled like the cone's: 2ab of 1e300 and 1e10 overflowed to inf (exact: 1e10), and of
  // 1e-170 and 1e-200 underflowed to 0 (exact: 1e-200).
  const double big[1] = {1e300}, mid[1] = {1e10}, tiny_a[1] = {1e-170}, tiny_b[1] = {1e-200};
  EXPECT_NEAR(FischerBurmeisterError(uni, big, mid, e), 1e10, 1e-5);
  EXPECT_NEAR(FischerBurmeisterError(uni, tiny_a, tiny_b, e), 1e-200, 1e-214);
}

}  // namespace
}  // namespace ncp

namespace ncp {
namespace {

// One joint-friction constraint (μ = 0.5) in a 2-dof global problem with A = I, J = I, b = 0:
// v̂ = λ and u = λ + e, so e = u − λ puts the evaluator at the state (λ, u).
Metrics JointFrictionState(double ln, double lt, double un, double ut) {
  ContactProblem p;
  p.form = ProblemForm::kGlobal;
  AddConstraint(p.constraints, ConstraintType::kJointFriction, 0.5);
  p.A = SpMat(2, 2);
  p.A.setIdentity();
  p.J = p.A;
  p.b = Vec::Zero(2);
  const Vec lam = Eigen::Vector2d(ln, lt);
  p.e = Eigen::Vector2d(un, ut) - lam;
  const Metrics m = Evaluator(p).Evaluate(lam, lam);
  EXPECT_LE(m[Metric::kDyn], 1e-15);  // v = v̂: only the constraint terms remain
  return m;
}

TEST(Evaluator, JointFrictionZeroAtStickAndSlideSolutions) {
  const Metric zero[] = {Metric::kRes004, Metric::kNatmapAbs,     Metric::kFb,
                         Metric::kPrimal, Metric::kConeViolation, Metric::kDissipation};
  struct State {
    double ln, lt, un, ut;
    const char* what;
  };
  for (const State& s :
       {State{2.0, 0.4, 0, 0, "stick, λ_n > 0"}, State{-2.0, -0.9, 0, 0, "stick, λ_n < 0"},
        State{1.5, -0.75, 0, 0.3, "slide, u_t > 0"},
        State{-1.5, 0.75, 0, -0.3, "slide, u_t < 0, λ_n < 0"},
        State{1.0, 0.5, 0, 0, "stick on the bound"}}) {
    const Metrics m = JointFrictionState(s.ln, s.lt, s.un, s.ut);
    for (Metric k : zero)
      EXPECT_LE(m[k], 1e-15) << s.what << ": " << kMetricNames[static_cast<int>(k)];
  }
}

TEST(Evaluator, JointFrictionPositiveOffTheLaw) {
  struct State {
    double ln, lt, un, ut, natmap;
    const char* what;
  };
  // natmap: the expected ‖(u_n, λ_t − clamp(λ_t − u_t, ±μ|λ_n|))‖.
  for (const State& s : {State{1.0, 0.8, 0, 0, 0.3, "|λ_t| > μ|λ_n| at rest"},
                         State{-1.0, -0.8, 0, 0, 0.3, "|λ_t| > μ|λ_n|, λ_n < 0"},
                         State{1.0, 0.2, 0.1, 0, 0.1, "u_n ≠ 0"},
                         State{1.0, 0.5, 0, 0.3, 0.3, "sliding, λ_t with u_t"},
                         State{-2.0, -1.0, 0, -0.4, 0.4, "sliding, λ_t with u_t, λ_n < 0"},
                         State{1.0, -0.2, 0, 0.3, 0.3, "sliding below the bound"}}) {
    const Metrics m = JointFrictionState(s.ln, s.lt, s.un, s.ut);
    EXPECT_NEAR(m[Metric::kNatmapAbs], s.natmap, 1e-14) << s.what;
    EXPECT_NEAR(m[Metric::kFb], s.natmap, 1e-14) << s.what;
    EXPECT_GT(m[Metric::kRes004], 0.05) << s.what;
  }
  // The cone and dissipation metrics see their own violations.
  EXPECT_NEAR(JointFrictionState(1.0, 0.8, 0, 0)[Metric::kConeViolation], 0.3, 1e-15);
  EXPECT_NEAR(JointFrictionState(1.0, 0.5, 0, 0.3)[Metric::kDissipation], 0.3, 1e-15);
}

TEST(Evaluator, JointFrictionTreeZeroAtExactSolution) {
  for (double branching : {0.0, 1.0}) {
    JointFrictionTreeOptions o;
    o.branching = branching;
    const ContactProblem p = ManufacturedJointFrictionTree(o, 5, "jf");
    const Metrics m = Evaluator(p).Evaluate(p.reference->v, p.reference->lambda);
    for (Metric k : kZeroAtSolution)
      EXPECT_LE(m[k], 1e-12) << branching << ": " << kMetricNames[static_cast<int>(k)];
  }
}

}  // namespace
}  // namespace ncp
